/**
 * `If-None-Match` with the weak comparison RFC 9110 asks of GET and HEAD: `W/` is ignored on
 * either side, and `*` matches any current file.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strong = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === strong;
  });
}

/**
 * RFC 9110 §13.2.2's first two steps: `If-Match` with the strong comparison (a weak tag never
 * matches; `*` matches any current file), else `If-Unmodified-Since` (an unreadable date is
 * ignored). True when the request must be answered 412.
 */
export function preconditionFails(
  headers: { 'if-match'?: string; 'if-unmodified-since'?: string },
  etag: string,
  lastModifiedMs: number,
): boolean {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    const strong = !etag.startsWith('W/');
    return !ifMatch.split(',').some((candidate) => {
      const tag = candidate.trim();
      return tag === '*' || (strong && tag === etag);
    });
  }
  const since = Date.parse(headers['if-unmodified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(lastModifiedMs / 1000) * 1000 > since;
}
