import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

/**
 * A rung's whole length, written into its moov before it is stored. ffmpeg 5.1 states none in a
 * fragmented MP4 (mvhd says 0 and there is no `mehd`), and Firefox then takes for the length only
 * the fragments it has read so far, growing as it downloads; Chromium and WebKit add up the sidx.
 * A `mehd` (the movie extends header) is where ISO 14496-12 puts a fragmented movie's length.
 */

interface Box {
  type: string;
  start: number;
  /** Where the box's content starts (after its header). */
  body: number;
  end: number;
}

/** The boxes laid one after the other in `data` from `from` to `to`; stops at one that does not fit. */
function* boxes(data: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    const small = data.readUInt32BE(at);
    if (small === 1 && at + 16 > to) return;
    const size = small === 1 ? Number(data.readBigUInt64BE(at + 8)) : small;
    const body = at + (small === 1 ? 16 : 8);
    if (size < body - at || at + size > to) return;
    yield { type: data.toString('latin1', at + 4, at + 8), start: at, body, end: at + size };
    at += size;
  }
}

const child = (data: Buffer, parent: Box, type: string) => [...boxes(data, parent.body, parent.end)].find((box) => box.type === type);

/** A version 0 or 1 full box's field that is 32 bits in the one and 64 in the other. */
const wide = (data: Buffer, at: number, version: number) => (version === 1 ? Number(data.readBigUInt64BE(at)) : data.readUInt32BE(at));

/**
 * The movie's length in its timescale: where its latest track ends, by its sidx. ffmpeg places
 * each sidx on the presentation timeline, its edit list already applied (the AAC priming left out
 * of the first fragment's length, the video's B-frame delay out of its start), so a track ends at
 * its earliest presentation time plus the length of its fragments.
 */
function movieDuration(data: Buffer, moov: Box, sidxes: readonly Box[]): number | undefined {
  const mvhd = child(data, moov, 'mvhd');
  if (!mvhd || sidxes.length === 0) return undefined;
  const movieScale = data.readUInt32BE(mvhd.body + (data[mvhd.body] === 1 ? 20 : 12));
  const ends = sidxes.map((sidx) => {
    const version = data[sidx.body]!;
    const timescale = data.readUInt32BE(sidx.body + 8);
    const counts = sidx.body + (version === 1 ? 28 : 20);
    if (counts + 4 + data.readUInt16BE(counts + 2) * 12 > sidx.end) return Number.NaN;
    let end = wide(data, sidx.body + 12, version);
    for (let index = 0; index < data.readUInt16BE(counts + 2); index++) end += data.readUInt32BE(counts + 8 + index * 12);
    return Math.round((end * movieScale) / timescale);
  });
  const longest = Math.max(...ends);
  return Number.isNaN(longest) ? undefined : longest;
}

/** Ten hours of fragments take about half a MiB of sidx; a bigger head is not a rung's. */
const MAX_HEAD = 4 * 1024 * 1024;

/** ftyp, moov and the sidx boxes after it, read from the start of the file up to its first moof. */
async function readHead(file: FileHandle, size: number): Promise<{ data: Buffer; moov: Box; sidxes: Box[] } | undefined> {
  let bytes = 64 * 1024;
  for (;;) {
    const data = Buffer.alloc(Math.min(bytes, size));
    await file.read(data, 0, data.length, 0);
    const top = [...boxes(data, 0, data.length)];
    const moof = top.findIndex((box) => box.type === 'moof');
    const moov = top.find((box) => box.type === 'moov');
    if (moof >= 0 && moov) return { data, moov, sidxes: top.slice(0, moof).filter((box) => box.type === 'sidx') };
    if (data.length === size || bytes >= MAX_HEAD) return undefined;
    bytes *= 4;
  }
}

/** The mfra at the end (its size is in the mfro that closes it), whose tfra entries give each moof's offset from the start of the file. */
async function readMfra(file: FileHandle, size: number): Promise<Buffer | undefined> {
  if (size < 16) return undefined;
  const mfro = Buffer.alloc(16);
  await file.read(mfro, 0, 16, size - 16);
  if (mfro.toString('latin1', 4, 8) !== 'mfro') return undefined;
  const length = mfro.readUInt32BE(12);
  if (length < 24 || length > size) return undefined;
  const mfra = Buffer.alloc(length);
  await file.read(mfra, 0, length, size - length);
  return mfra.toString('latin1', 4, 8) === 'mfra' ? mfra : undefined;
}

/** Moves every moof offset of the mfra's tfra boxes `by` bytes on. */
function shiftMfra(mfra: Buffer, by: number): void {
  for (const tfra of boxes(mfra, 8, mfra.length)) {
    if (tfra.type !== 'tfra') continue;
    const version = mfra[tfra.body]!;
    const sizes = mfra.readUInt32BE(tfra.body + 8);
    // traf_number, trun_number and sample_number, each 1 to 4 bytes long.
    const rest = ((sizes >> 4) & 3) + 1 + (((sizes >> 2) & 3) + 1) + ((sizes & 3) + 1);
    const entry = (version === 1 ? 16 : 8) + rest;
    const count = mfra.readUInt32BE(tfra.body + 12);
    for (let index = 0, at = tfra.body + 16; index < count && at + entry <= tfra.end; index++, at += entry) {
      if (version === 1) mfra.writeBigUInt64BE(mfra.readBigUInt64BE(at + 8) + BigInt(by), at + 8);
      else mfra.writeUInt32BE(mfra.readUInt32BE(at + 4) + by, at + 4);
    }
  }
}

/** A box's size field, small or large, made `by` bytes bigger. */
function grow(data: Buffer, box: Box, by: number): void {
  if (data.readUInt32BE(box.start) === 1) data.writeBigUInt64BE(data.readBigUInt64BE(box.start + 8) + BigInt(by), box.start + 8);
  else data.writeUInt32BE(data.readUInt32BE(box.start) + by, box.start);
}

const MEHD_SIZE = 20;

function mehd(duration: number): Buffer {
  const box = Buffer.alloc(MEHD_SIZE);
  box.writeUInt32BE(MEHD_SIZE, 0);
  box.write('mehd', 4, 'latin1');
  box[8] = 1; // version 1: a 64-bit duration
  box.writeBigUInt64BE(BigInt(duration), 12);
  return box;
}

/** What the file needs: its mehd's value set in place, or a new head with the rest of the file after it. */
type Change =
  | { kind: 'set'; at: number; value: Buffer }
  | { kind: 'insert'; head: Buffer; rest: { start: number; end: number }; mfra: Buffer | undefined; mode: number };

async function changeFor(file: FileHandle): Promise<Change | undefined> {
  const { size, mode } = await file.stat();
  const head = await readHead(file, size);
  const mvex = head && child(head.data, head.moov, 'mvex');
  const duration = head && movieDuration(head.data, head.moov, head.sidxes);
  if (!head || !mvex || duration === undefined) return undefined;
  const { data, moov } = head;
  const existing = child(data, mvex, 'mehd');
  if (existing) {
    const version = data[existing.body]!;
    const value = Buffer.alloc(version === 1 ? 8 : 4);
    if (version === 1) value.writeBigUInt64BE(BigInt(duration));
    else value.writeUInt32BE(Math.min(duration, 0xffffffff));
    return { kind: 'set', at: existing.body + 4, value };
  }
  const before = Buffer.from(data.subarray(0, moov.end));
  grow(before, moov, MEHD_SIZE);
  grow(before, mvex, MEHD_SIZE);
  const mfra = await readMfra(file, size);
  if (mfra) shiftMfra(mfra, MEHD_SIZE);
  return {
    kind: 'insert',
    head: Buffer.concat([before.subarray(0, mvex.body), mehd(duration), before.subarray(mvex.body)]),
    rest: { start: moov.end, end: size - (mfra?.length ?? 0) },
    mfra,
    // The permissions ffmpeg gave it, without the file type.
    mode: mode & 0o777,
  };
}

/**
 * Writes the movie's length into the fragmented MP4 at `path` (a rung as ffmpeg wrote it, not yet
 * stored): its `mehd` set in place when there is one, or else one added at the start of `mvex`.
 * Adding moves everything after the moov on by its 20 bytes, so the file is written anew beside
 * itself and renamed over it; the sidx and moof point relatively and stay right, and the mfra's
 * absolute moof offsets are moved with them. False, with the file left as it was, when it is not
 * laid out as a rung (ftyp, moov with mvex, sidx, then fragments).
 */
export async function writeFragmentedDuration(path: string): Promise<boolean> {
  const file = await open(path, 'r+');
  let change: Change | undefined;
  try {
    change = await changeFor(file);
    if (change?.kind === 'set') await file.write(change.value, 0, change.value.length, change.at);
  } finally {
    await file.close();
  }
  if (change?.kind !== 'insert') return change !== undefined;
  const { head, rest, mfra, mode } = change;
  const rewritten = `${path}.duration`;
  try {
    await pipeline(
      async function* () {
        yield head;
        if (rest.end > rest.start) yield* createReadStream(path, { start: rest.start, end: rest.end - 1 });
        if (mfra) yield mfra;
      },
      createWriteStream(rewritten, { flags: 'wx', mode }),
    );
    await rename(rewritten, path);
  } catch (error) {
    await rm(rewritten, { force: true });
    throw error;
  }
  return true;
}
