/**
 * Recognises a video container from the first bytes of a file, so a file whose name or type
 * claims "video" but whose content is something else (a renamed text file, a PDF) is refused
 * before a byte is sent, instead of being stored and failing in processing where the person
 * never sees it. Only the head is read; the verdict is "looks like this container", not "plays".
 */

/** Bytes read from the start of the file: MPEG-TS needs three 192-byte packets, the rest far less. */
export const SIGNATURE_BYTES = 1024;

/**
 * The family a file's first bytes show, which may hold several of the `accept` option's
 * `Container` names: `mp4` is also MOV, M4V and 3GP, `matroska` also WebM and MKV (limits.ts).
 */
export type ContainerFamily = 'mp4' | 'matroska' | 'avi' | 'mpeg-ts' | 'flv' | 'asf' | 'mpeg-ps' | 'ogg' | 'realmedia' | 'mxf' | 'dv';

function ascii(head: Uint8Array, at: number, text: string): boolean {
  if (head.length < at + text.length) return false;
  for (let i = 0; i < text.length; i += 1) if (head[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

function bytesAt(head: Uint8Array, at: number, bytes: readonly number[]): boolean {
  return head.length >= at + bytes.length && bytes.every((byte, i) => head[at + i] === byte);
}

/** MPEG-TS sync byte 0x47 every 188 bytes (M2TS/AVCHD: every 192, after a 4-byte timecode). */
function transportStream(head: Uint8Array): boolean {
  const packets = (start: number, size: number) => [0, 1, 2].every((n) => head[start + n * size] === 0x47);
  return packets(0, 188) || packets(4, 192);
}

/** ISO base media (MP4, MOV, M4V, 3GP, 3G2, F4V): a box header whose type is `ftyp`, or an old QuickTime file's first atom. */
function isoMedia(head: Uint8Array): boolean {
  return ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].some((box) => ascii(head, 4, box));
}

const SIGNATURES: readonly [ContainerFamily, (head: Uint8Array) => boolean][] = [
  ['mp4', isoMedia],
  ['matroska', (head) => bytesAt(head, 0, [0x1a, 0x45, 0xdf, 0xa3])], // EBML: MKV and WebM
  ['avi', (head) => ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')],
  ['flv', (head) => ascii(head, 0, 'FLV') && head[3] === 1],
  ['asf', (head) => bytesAt(head, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])], // WMV, ASF
  ['mpeg-ps', (head) => bytesAt(head, 0, [0, 0, 1, 0xba]) || bytesAt(head, 0, [0, 0, 1, 0xb3])], // MPEG-PS (VOB, MPG) and MPEG-1/2 video
  ['ogg', (head) => ascii(head, 0, 'OggS')],
  ['realmedia', (head) => ascii(head, 0, '.RMF')],
  ['mxf', (head) => bytesAt(head, 0, [0x06, 0x0e, 0x2b, 0x34])],
  ['dv', (head) => bytesAt(head, 0, [0x1f, 0x07, 0x00])], // DV: a DIF header block
  ['mpeg-ts', transportStream],
];

/** The container the head belongs to, or null when it matches none of the video containers we know. */
export function containerFamilyOf(head: Uint8Array): ContainerFamily | null {
  return SIGNATURES.find(([, matches]) => matches(head))?.[0] ?? null;
}

/** Reads only the file's first bytes. */
export async function sniffContainerFamily(file: Blob): Promise<ContainerFamily | null> {
  return containerFamilyOf(new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer()));
}
