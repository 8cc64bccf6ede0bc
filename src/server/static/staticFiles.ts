import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { extname, join } from 'node:path';
import { ServiceError } from '../errors';
import { ifNoneMatchHits } from '../http/conditional';
import type { Handler } from '../http/router';
import { chooseEncoding, PRECOMPRESSED, type Encoding } from './contentEncoding';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  // The README, linked from the landing page; plain text shows in every browser.
  '.md': 'text/plain; charset=utf-8',
};

/** One path segment of plain characters: no `/`, `\`, `%` or leading dot, so no way out of the directory. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Hashed names never change content: cached for a year and never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Fixed URLs whose content a deploy changes: reused for 5 minutes, then revalidated by ETag. */
export const SHORT_LIVED = 'public, max-age=300';
/** Revalidated on every use (304 while unchanged). */
export const REVALIDATE = 'no-cache';

export interface StaticOptions {
  /** Loader scripts run on other sites' pages; the page's own assets are same-origin only. */
  crossOrigin: boolean;
  /** Said in the 404 when the directory itself is missing (the build has not run). */
  missingHint: string;
  /** The Cache-Control header: {@link IMMUTABLE}, {@link SHORT_LIVED} or {@link REVALIDATE}. */
  cacheControl: string;
}

interface Variant {
  etag: string;
  body: Buffer;
}

interface Cached {
  mtimeMs: number;
  size: number;
  identity: Variant;
  /** The build's precompressed copies that are current (not older than the file). */
  encoded: Map<Encoding, Variant>;
}

function variant(body: Buffer, tag = ''): Variant {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${tag}"` };
}

async function load(path: string, info: { mtimeMs: number; size: number }): Promise<Cached> {
  const encoded = new Map<Encoding, Variant>();
  for (const { encoding, suffix } of PRECOMPRESSED) {
    const copy = await stat(path + suffix).catch(() => undefined);
    // A copy older than the file is from an earlier build: never serve it.
    if (copy?.isFile() && copy.mtimeMs >= info.mtimeMs) encoded.set(encoding, variant(await readFile(path + suffix), `-${encoding}`));
  }
  return { mtimeMs: info.mtimeMs, size: info.size, identity: variant(await readFile(path)), encoded };
}

/**
 * Serves built files with a content hash as ETag, the Cache-Control of `options`, and the
 * build's brotli or gzip copy when the request accepts it (chosen per request, so
 * `Vary: Accept-Encoding` on every reply of a file that has copies).
 */
function fileSender(options: StaticOptions) {
  const cache = new Map<string, Cached>();
  const baseHeaders: OutgoingHttpHeaders = {
    'Cache-Control': options.cacheControl,
    'X-Content-Type-Options': 'nosniff',
    ...(options.crossOrigin
      ? { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' }
      : { 'Cross-Origin-Resource-Policy': 'same-origin' }),
  };

  return async function send(req: IncomingMessage, res: import('node:http').ServerResponse, dir: string, name: string): Promise<void> {
    const type = CONTENT_TYPES[extname(name)];
    if (!FILE_NAME.test(name) || !type) throw new ServiceError('NOT_FOUND', name);
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) {
      throw new ServiceError('NOT_FOUND', existsSync(dir) ? name : `${name}: ${options.missingHint}`);
    }
    let file = cache.get(path);
    if (!file || file.mtimeMs !== info.mtimeMs || file.size !== info.size) {
      file = await load(path, info);
      cache.set(path, file);
    }
    const encoding = chooseEncoding(req.headers['accept-encoding'], [...file.encoded.keys()]);
    const chosen = encoding ? file.encoded.get(encoding)! : file.identity;
    const headers: OutgoingHttpHeaders = {
      ...baseHeaders,
      ETag: chosen.etag,
      ...(file.encoded.size > 0 ? { Vary: 'Accept-Encoding' } : {}),
    };
    if (ifNoneMatchHits(req.headers['if-none-match'], chosen.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': type,
      'Content-Length': chosen.body.length,
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    });
    res.end(chosen.body);
  };
}

/** Every file of `dir` under a route prefix ending in `/*`; `fileOf` may answer a name with another file. */
export function staticDirectory(
  routePrefix: string,
  dir: string,
  options: StaticOptions,
  fileOf: (name: string) => string = (name) => name,
): Handler {
  const send = fileSender(options);
  const prefix = routePrefix.replace(/\*$/, '');
  return ({ req, res, url }) => send(req, res, dir, fileOf(url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : ''));
}

/** One file at a fixed path. */
export function staticFile(path: string, options: StaticOptions): Handler {
  const send = fileSender(options);
  const dir = join(path, '..');
  const name = path.slice(dir.length + 1);
  return ({ req, res }) => send(req, res, dir, name);
}
