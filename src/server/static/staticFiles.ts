import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { extname, join } from 'node:path';
import { ApiError } from '../errors';
import { ifNoneMatchHits } from '../http/conditional';
import type { Handler } from '../http/router';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** One path segment of plain characters: no `/`, `\`, `%` or leading dot, so no way out of the directory. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface StaticOptions {
  /** Loader scripts run on other sites' pages; the page's own assets are same-origin only. */
  crossOrigin: boolean;
  /** Said in the 404 when the directory itself is missing (the build has not run). */
  missingHint: string;
}

interface Cached {
  mtimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
}

/**
 * Serves built files with a content hash as ETag and `Cache-Control: no-cache`: browsers
 * revalidate every time (a new build is picked up at once) and get 304 while nothing changed.
 */
function fileSender(options: StaticOptions) {
  const cache = new Map<string, Cached>();
  const baseHeaders: OutgoingHttpHeaders = {
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...(options.crossOrigin
      ? { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' }
      : { 'Cross-Origin-Resource-Policy': 'same-origin' }),
  };

  return async function send(req: IncomingMessage, res: import('node:http').ServerResponse, dir: string, name: string): Promise<void> {
    const type = CONTENT_TYPES[extname(name)];
    if (!FILE_NAME.test(name) || !type) throw new ApiError('NOT_FOUND', name);
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) {
      throw new ApiError('NOT_FOUND', existsSync(dir) ? name : `${name}: ${options.missingHint}`);
    }
    let file = cache.get(path);
    if (!file || file.mtimeMs !== info.mtimeMs || file.size !== info.size) {
      const body = await readFile(path);
      file = { mtimeMs: info.mtimeMs, size: info.size, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      cache.set(path, file);
    }
    if (ifNoneMatchHits(req.headers['if-none-match'], file.etag)) {
      res.writeHead(304, { ...baseHeaders, ETag: file.etag });
      res.end();
      return;
    }
    res.writeHead(200, { ...baseHeaders, ETag: file.etag, 'Content-Type': type, 'Content-Length': file.body.length });
    res.end(file.body);
  };
}

/** Every file of `dir` under a route prefix ending in `/*`. */
export function staticDirectory(routePrefix: string, dir: string, options: StaticOptions): Handler {
  const send = fileSender(options);
  const prefix = routePrefix.replace(/\*$/, '');
  return ({ req, res, url }) => send(req, res, dir, url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '');
}

/** One file at a fixed path. */
export function staticFile(path: string, options: StaticOptions): Handler {
  const send = fileSender(options);
  const dir = join(path, '..');
  const name = path.slice(dir.length + 1);
  return ({ req, res }) => send(req, res, dir, name);
}
