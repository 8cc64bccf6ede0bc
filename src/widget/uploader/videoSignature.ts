/**
 * Recognises a video container from the first bytes of a file, so a file whose name or type
 * claims "video" but whose content is something else (a renamed text file, a PDF) is refused
 * before a byte is sent, instead of being stored and failing in processing where the person
 * never sees it; and so the page's `accept` can name containers by what the file is, not by its
 * name. Only the head is read; the verdict is "looks like this container", not "plays".
 */
import type { Container } from '../../shared/widgetConfig';

/** Bytes read from the start of the file: MPEG-TS needs three 192-byte packets, the rest far less. */
export const SIGNATURE_BYTES = 1024;

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

/** The four characters at `at`. */
function fourCC(head: Uint8Array, at: number): string {
  return String.fromCharCode(...head.subarray(at, at + 4));
}

/**
 * ISO base media: a box header whose type is `ftyp`, told apart by its major brand (QuickTime's
 * `qt  `, Apple's `M4V…`, the 3GPP `3g…`, any other brand being MP4 (isom, mp41, mp42, avc1, f4v,
 * …)); or an old QuickTime file, which starts with another atom and has no brand.
 */
function isoMedia(head: Uint8Array): Container | null {
  if (ascii(head, 4, 'ftyp')) {
    const brand = fourCC(head, 8);
    if (brand === 'qt  ') return 'mov';
    if (brand.startsWith('M4V')) return 'm4v';
    if (brand.startsWith('3g')) return '3gp';
    return 'mp4';
  }
  return ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].some((box) => ascii(head, 4, box)) ? 'mov' : null;
}

/**
 * EBML (Matroska and WebM): the header's DocType element (id 0x4282, a one-byte size, the text)
 * says which; a header without one is Matroska, EBML's default DocType.
 */
function ebml(head: Uint8Array): Container | null {
  if (!bytesAt(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  for (let i = 4; i < Math.min(head.length, 64); i += 1) {
    if (head[i] === 0x42 && head[i + 1] === 0x82 && (head[i + 2]! & 0x80) !== 0) return ascii(head, i + 3, 'webm') ? 'webm' : 'mkv';
  }
  return 'mkv';
}

const when =
  (container: Container, matches: (head: Uint8Array) => boolean) =>
  (head: Uint8Array): Container | null =>
    matches(head) ? container : null;

const SIGNATURES: readonly ((head: Uint8Array) => Container | null)[] = [
  isoMedia,
  ebml,
  when('avi', (head) => ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')),
  when('flv', (head) => ascii(head, 0, 'FLV') && head[3] === 1),
  when('wmv', (head) => bytesAt(head, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])), // ASF: WMV
  when('mpeg', (head) => bytesAt(head, 0, [0, 0, 1, 0xba]) || bytesAt(head, 0, [0, 0, 1, 0xb3])), // MPEG-PS (VOB, MPG) and MPEG-1/2 video
  when('ogg', (head) => ascii(head, 0, 'OggS')),
  when('rm', (head) => ascii(head, 0, '.RMF')),
  when('mxf', (head) => bytesAt(head, 0, [0x06, 0x0e, 0x2b, 0x34])),
  when('dv', (head) => bytesAt(head, 0, [0x1f, 0x07, 0x00])), // DV: a DIF header block
  when('ts', transportStream),
];

/** The container the head belongs to, or null when it matches none of the video containers we know. */
export function videoContainerOf(head: Uint8Array): Container | null {
  for (const signature of SIGNATURES) {
    const container = signature(head);
    if (container) return container;
  }
  return null;
}

/** Reads only the file's first bytes. */
export async function sniffVideoContainer(file: Blob): Promise<Container | null> {
  return videoContainerOf(new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer()));
}
