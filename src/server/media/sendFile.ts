import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../errors';
import { ifNoneMatchHits, preconditionFails } from '../http/conditional';
import { parseRange } from './range';

/** Renditions and pictures keep their names when a video is processed again; the ETag tells a cache. */
const CACHE_CONTROL = 'public, max-age=3600';

function entityTag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

function notModified(req: IncomingMessage, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return ifNoneMatchHits(ifNoneMatch, etag);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/** `If-Range` with another validator means the cached part is stale: the whole file is sent instead. */
function rangeStillValid(req: IncomingMessage, etag: string, lastModified: string): boolean {
  const ifRange = req.headers['if-range'];
  return ifRange === undefined || ifRange === etag || ifRange === lastModified;
}

async function openRegularFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    // No symlink is followed: only files the service wrote are served.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    throw new ServiceError('NOT_FOUND', 'no such media file');
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new ServiceError('NOT_FOUND', 'no such media file');
  }
  return handle;
}

/** One stored file as the reply needs it: its validators and a way to read a byte range of it. */
export interface StoredFile {
  size: number;
  etag: string;
  lastModified: Date;
  /** The bytes `start`…`end` (inclusive). */
  read(start: number, end: number): Promise<Readable>;
  /** Releases what was opened for the file when no read was made. */
  close(): Promise<void>;
}

/**
 * Answers GET or HEAD with one stored file, streamed (never read whole), with validators,
 * conditional replies (412, then 304, in RFC 9110's order) and a single byte range (206, or 416 when it starts past the end),
 * so a `<video>` element can seek.
 */
export async function sendStored(req: IncomingMessage, res: ServerResponse, file: StoredFile, contentType: string): Promise<void> {
  let streaming = false;
  try {
    const { size, etag } = file;
    const lastModified = file.lastModified.toUTCString();
    const headers: Record<string, string | number> = {
      'Content-Type': contentType,
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      // The handler may have asked caches to check again each time, for a URL that will move.
      'Cache-Control': (res.getHeader('Cache-Control') as string | undefined) ?? CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
    };
    if (preconditionFails(req.headers, etag, file.lastModified.getTime())) {
      res.writeHead(412, { ...headers, 'Content-Length': 0 }).end();
      return;
    }
    if (notModified(req, etag, file.lastModified.getTime())) {
      res.writeHead(304, headers).end();
      return;
    }
    const range = rangeStillValid(req, etag, lastModified) ? parseRange(req.headers.range, size) : { kind: 'whole' as const };
    if (range.kind === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': 0 }).end();
      return;
    }
    const start = range.kind === 'part' ? range.start : 0;
    const end = range.kind === 'part' ? range.end : size - 1;
    if (range.kind === 'part') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    // The body is opened before the head is sent, so a store that fails here still gets an error reply.
    const body = req.method === 'HEAD' || size === 0 ? undefined : await file.read(start, end);
    streaming = body !== undefined;
    headers['Content-Length'] = end - start + 1;
    res.writeHead(range.kind === 'part' ? 206 : 200, headers);
    if (!body) {
      res.end();
      return;
    }
    // A viewer who seeks or leaves closes the connection mid-file; that is not an error worth a log line.
    await pipeline(body, res).catch(() => undefined);
  } finally {
    // A read stream closes what it read from itself once it has been handed over.
    if (!streaming) await file.close();
  }
}

/** Answers GET or HEAD with one file under DATA_DIR, read from an open descriptor. */
export async function sendFile(req: IncomingMessage, res: ServerResponse, path: string, contentType: string): Promise<void> {
  const handle = await openRegularFile(path);
  const { size, mtimeMs, mtime } = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  await sendStored(
    req,
    res,
    {
      size,
      etag: entityTag(size, mtimeMs),
      lastModified: mtime,
      read: async (start, end) => handle.createReadStream({ start, end }),
      close: () => handle.close(),
    },
    contentType,
  );
}
