/** 128 random bits as hex: the per-open channel id every message must carry. */
export function randomChannel(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
