/** An absolute http or https URL (the parser insists on a host for both). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A DNS name or a bracketed IPv6 literal (IPv4 literals are DNS-shaped). `new URL` keeps `;`, `"`,
 * `'` and `,` in a hostname and `origin` echoes them, yet the origin goes into the page's CSP
 * header, where `http://x;sandbox` would add a directive.
 */
const ORIGIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/;

/** An http(s) origin exactly as a browser writes one: no credentials, no path, a plain host. */
export function isOrigin(value: string): boolean {
  if (!isHttpUrl(value)) return false;
  const url = new URL(value);
  return ORIGIN_HOST.test(url.hostname) && url.origin === value;
}
