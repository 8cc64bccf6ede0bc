/** Encodings the build writes beside a file (`<name>.br`, `<name>.gz`), best first. */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

export type Encoding = (typeof PRECOMPRESSED)[number]['encoding'];

/**
 * The best of `available` that `Accept-Encoding` allows (q > 0), preferring brotli over gzip as
 * listed; undefined means the file as it is. `*` stands for any encoding not named.
 */
export function chooseEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const wildcard = weights.get('*') ?? 0;
  return available.find((encoding) => (weights.get(encoding) ?? wildcard) > 0);
}
