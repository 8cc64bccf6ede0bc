/** Bytes read from each end of the file: enough to tell files apart without reading them whole. */
export const SAMPLE_BYTES = 64 * 1024;

/**
 * Identifies "the same file" for resuming: SHA-256 (hex) of name, size, the first and the last
 * 64 KiB. Only those slices are read, so a multi-gigabyte file costs 128 KiB.
 */
export async function fileFingerprint(file: Blob & { name: string }): Promise<string> {
  const head = file.slice(0, SAMPLE_BYTES);
  const tail = file.slice(Math.max(SAMPLE_BYTES, file.size - SAMPLE_BYTES), file.size);
  const label = new TextEncoder().encode(`${file.name}\n${file.size}\n`);
  const parts = [label, new Uint8Array(await head.arrayBuffer()), new Uint8Array(await tail.arrayBuffer())];
  const data = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  // crypto.subtle exists only in secure contexts; a service on plain http (not localhost) still resumes.
  if (!globalThis.crypto?.subtle) return `fnv1a:${fnv1a(data, 0x811c9dc5)}${fnv1a(data, 0x050c5d1f)}`;
  const digest = await crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fnv1a(data: Uint8Array, seed: number): string {
  let hash = seed;
  for (const byte of data) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
