/**
 * The length of the well-formed UTF-8 sequence at `i`, or minus the length of the ill-formed
 * part there: its maximal subpart (Unicode §3.9), the unit TextDecoder replaces with one U+FFFD.
 */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  let trailing: number;
  // The first trailing byte's range is narrower after some leads: no overlong forms, no surrogates, nothing past U+10FFFF.
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) trailing = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    trailing = 2;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    trailing = 3;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return -1;
  for (let k = 1; k <= trailing; k++) {
    const byte = bytes[i + k];
    if (byte === undefined || byte < low || byte > high) return -k;
    low = 0x80;
    high = 0xbf;
  }
  return trailing + 1;
}

/**
 * Decodes UTF-8 as TextDecoder does (a leading byte order mark dropped), but puts `substitute`
 * where TextDecoder would put U+FFFD: decoding twice with two different substitutes shows which
 * text came from bytes that are not UTF-8, as the only text that differs.
 */
export function decodeUtf8Replacing(bytes: Buffer, substitute: string): string {
  let text = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceAt(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', runStart, i) + substitute;
    i -= length;
    runStart = i;
  }
  text += bytes.toString('utf8', runStart);
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
