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
