/**
 * Brotli and gzip copies of the browser files, made once at build time at the highest levels
 * (too slow per request, free once built): `<name>.br` and `<name>.gz` beside each file, which
 * the service's static files serve by Accept-Encoding (src/server/static/staticFiles.ts).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|css)$/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Writes the copies for every .js and .css file directly in `dir`; a copy no smaller than the file is skipped. */
export async function precompress(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const body = await readFile(join(dir, name));
    const copies = [
      [
        '.br',
        await brotli(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
      ],
      ['.gz', await gzipped(body, { level: constants.Z_BEST_COMPRESSION })],
    ] as const;
    for (const [suffix, copy] of copies) if (copy.length < body.length) await writeFile(join(dir, name + suffix), copy);
  }
}
