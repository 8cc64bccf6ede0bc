/**
 * What tus-js-client's upload.js takes from its two packages url-parse and js-base64, from the
 * browser instead: vite.config.ts points both names here for the upload page. upload.js uses only
 * `new URL(link, origin).toString()` (a Location against the request's URL) and
 * `Base64.encode(value)` (a metadata value: UTF-8, then standard base64); every browser the page
 * runs in has URL, TextEncoder and btoa, and the two packages were about 2.5 KB brotli of a
 * first overlay open (test/widget.budget.test.ts).
 */
export default URL;

export const Base64 = {
  encode(value: string): string {
    let binary = '';
    for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
    return btoa(binary);
  },
};
