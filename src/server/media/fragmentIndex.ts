/**
 * Where the parts of a rung lie, read from the head of the file: a fragmented MP4 laid out as
 * ffmpeg writes it with `empty_moov` and `global_sidx` (ftyp, moov, one sidx per track, then a
 * moof and mdat per fragment). That head is all an HLS media playlist needs: the init segment is
 * ftyp + moov (EXT-X-MAP) and each fragment a byte range with its duration (EXT-X-BYTERANGE).
 */

interface Fragment {
  offset: number;
  length: number;
  seconds: number;
}

export interface FragmentIndex {
  /** Bytes of ftyp + moov from the start of the file: the init segment. */
  initLength: number;
  fragments: Fragment[];
  /** RFC 6381 codecs of the tracks, e.g. `avc1.64001f,mp4a.40.2`. */
  codecs: string;
  width: number;
  height: number;
}

/** Not enough of the file was read: `bytes` from its start hold the index. */
export interface NeedMore {
  needBytes: number;
}

interface Box {
  type: string;
  start: number;
  /** Where the box's content starts (after its header). */
  body: number;
  end: number;
}

/** The box at `at`, or how many bytes its header needs; a size of 0 (to the end of the file) never heads a rung. */
function boxAt(data: Buffer, at: number): Box | NeedMore | undefined {
  if (at + 16 > data.length) return { needBytes: at + 16 };
  const small = data.readUInt32BE(at);
  const type = data.toString('latin1', at + 4, at + 8);
  const size = small === 1 ? Number(data.readBigUInt64BE(at + 8)) : small;
  const body = at + (small === 1 ? 16 : 8);
  if (size < body - at) return undefined;
  return { type, start: at, body, end: at + size };
}

function* children(data: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    const small = data.readUInt32BE(at);
    const size = small === 1 ? Number(data.readBigUInt64BE(at + 8)) : small;
    const body = at + (small === 1 ? 16 : 8);
    if (size < body - at || at + size > to) return;
    yield { type: data.toString('latin1', at + 4, at + 8), start: at, body, end: at + size };
    at += size;
  }
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);
const hex = (byte: number) => byte.toString(16).padStart(2, '0');

interface Track {
  id: number;
  codec?: string;
  width?: number;
  height?: number;
}

/** The tracks of the moov: each one's id (tkhd) and, for the sample entries the ladder writes, its codec. */
function tracksOf(data: Buffer, moov: Box): Track[] {
  const tracks: Track[] = [];
  const visit = (box: Box, track: Track | undefined) => {
    if (box.type === 'trak') {
      const own: Track = { id: 0 };
      tracks.push(own);
      for (const child of children(data, box.body, box.end)) visit(child, own);
    } else if (box.type === 'tkhd' && track) {
      track.id = data.readUInt32BE(box.body + (data[box.body] === 1 ? 20 : 12));
    } else if (box.type === 'stsd' && track) {
      // Full box header and entry count; the sample entries follow.
      for (const entry of children(data, box.body + 8, box.end)) sampleEntry(data, entry, track);
    } else if (CONTAINERS.has(box.type)) {
      for (const child of children(data, box.body, box.end)) visit(child, track);
    }
  };
  for (const child of children(data, moov.body, moov.end)) visit(child, undefined);
  return tracks;
}

function sampleEntry(data: Buffer, entry: Box, track: Track): void {
  if (entry.type === 'mp4a') {
    // The ladder's audio is always AAC-LC (object type 2).
    track.codec = 'mp4a.40.2';
    return;
  }
  if (entry.type !== 'avc1' || entry.end < entry.body + 78) return;
  // A visual sample entry: 24 bytes of fixed fields, width and height, then 50 more before its boxes.
  track.width = data.readUInt16BE(entry.body + 24);
  track.height = data.readUInt16BE(entry.body + 26);
  for (const child of children(data, entry.body + 78, entry.end)) {
    if (child.type === 'avcC') track.codec = `avc1.${hex(data[child.body + 1]!)}${hex(data[child.body + 2]!)}${hex(data[child.body + 3]!)}`;
  }
}

/** A sidx's fragments, byte ranges after the box itself plus its first_offset. */
function fragmentsOf(data: Buffer, sidx: Box): Fragment[] | undefined {
  const version = data[sidx.body]!;
  const timescale = data.readUInt32BE(sidx.body + 8);
  const firstOffset = version === 0 ? data.readUInt32BE(sidx.body + 16) : Number(data.readBigUInt64BE(sidx.body + 20));
  const counts = sidx.body + (version === 0 ? 20 : 28);
  const count = data.readUInt16BE(counts + 2);
  if (counts + 4 + count * 12 > sidx.end) return undefined;
  let offset = sidx.end + firstOffset;
  const fragments: Fragment[] = [];
  for (let index = 0; index < count; index++) {
    const at = counts + 4 + index * 12;
    const reference = data.readUInt32BE(at);
    // A reference to another sidx (the top bit) is a layout ffmpeg does not write: not a rung.
    if (reference >>> 31 === 1) return undefined;
    const length = reference & 0x7fffffff;
    fragments.push({ offset, length, seconds: data.readUInt32BE(at + 4) / timescale });
    offset += length;
  }
  return fragments;
}

/**
 * The index from the first bytes of a file: the index, how many bytes it needs when `head` is too
 * short, or undefined when the file is not laid out as a fragmented rung (a faststart MP4 written
 * before rungs were fragmented, or the layout ffmpeg 5.1 writes for `frag_keyframe+global_sidx`
 * without `empty_moov`, where the first fragment's samples sit in a plain mdat before the sidx).
 */
export function readFragmentIndex(head: Buffer): FragmentIndex | NeedMore | undefined {
  const sidxes: Box[] = [];
  let moov: Box | undefined;
  let at = 0;
  for (;;) {
    const box = boxAt(head, at);
    if (!box || 'needBytes' in box) return box;
    const order = moov ? 'sidx' : at === 0 ? 'ftyp' : 'moov';
    if (box.type === 'moof' && sidxes.length > 0) break;
    if (box.type !== order) return undefined;
    if (box.end > head.length) return { needBytes: box.end };
    if (box.type === 'moov') moov = box;
    if (box.type === 'sidx') sidxes.push(box);
    at = box.end;
  }
  const tracks = tracksOf(head, moov!);
  const video = tracks.find((track) => track.width !== undefined && track.codec !== undefined);
  const sidx = sidxes.find((box) => head.readUInt32BE(box.body + 4) === video?.id);
  const fragments = sidx && fragmentsOf(head, sidx);
  if (!video || !fragments || fragments.length === 0) return undefined;
  const audio = tracks.find((track) => track.codec?.startsWith('mp4a'));
  return {
    initLength: moov!.end,
    fragments,
    codecs: [video.codec, audio?.codec].filter(Boolean).join(','),
    width: video.width!,
    height: video.height!,
  };
}
