import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';

/** One stretch of the stream, `partBytes` long but for the last, in a private temporary file. */
export interface Chunk {
  /** 0 for the stream's first bytes (the `head`, if any, starts it). */
  index: number;
  path: string;
  size: number;
}

export interface PartStreamOptions {
  partBytes: number;
  /** Chunks being sent at once, at most; reading waits while that many are. */
  concurrency: number;
  /** Where the chunk files are written (the service's private TMPDIR). */
  directory: string;
  /** Bytes that go before the stream's own (an upload's incomplete last part). */
  head?: Buffer;
}

/**
 * Cuts `source` into chunks of `partBytes` and hands each to `send` as soon as it is whole, while
 * the rest still arrives: the bytes are received and sent at once. Reading pauses while
 * `concurrency` chunks are being sent, so the request's socket waits (TCP back-pressure) and at
 * most `concurrency + 1` chunk files exist at any time (the ones being sent, the one being written);
 * memory holds one read at a time. The last chunk may be short (or absent when the stream ends on
 * a boundary); `send` decides what to do with it.
 *
 * @tus/s3-store 2.0.7 does the same with a semaphore taken in an event handler its splitter does
 * not wait for, so nothing held the reading back: a slow bucket saw up to 12 parts at once and
 * the temporary folder filled with them (docs/decisions.md).
 *
 * Returns what `send` returned, in stream order. When a send fails, reading stops, the sends under
 * way are awaited, every chunk file is removed, and the first failure is thrown; so it is when the
 * stream fails (its partial chunk is dropped: the caller keeps only whole parts of a broken body).
 */
export async function sendInParts<T>(
  source: AsyncIterable<Uint8Array>,
  options: PartStreamOptions,
  send: (chunk: Chunk) => Promise<T>,
): Promise<T[]> {
  const { partBytes, concurrency, directory } = options;
  const results: Promise<T>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let failure: { error: unknown } | undefined;
  let file: { handle: FileHandle; path: string; size: number } | undefined;

  const dispatch = async () => {
    if (!file) return;
    const { handle, path, size } = file;
    file = undefined;
    await handle.close();
    if (size === 0) {
      await rm(path, { force: true });
      return;
    }
    const sent = send({ index: results.length, path, size }).finally(() => rm(path, { force: true }));
    const tracked = sent.then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
      },
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
    sent.catch(() => undefined); // reported through `failure`, and by the returned promise below
    results.push(sent);
  };
  const startFile = async () => {
    while (inFlight.size >= concurrency && !failure) await Promise.race(inFlight);
    if (failure) stop(failure.error);
    const path = join(directory, `ovu-part-${randomBytes(8).toString('hex')}`);
    file = { handle: await open(path, 'wx', PRIVATE_FILE_MODE), path, size: 0 };
  };
  // A failed send ends the stream with its error, so whoever pipes into it (tus) hears that error
  // first, not the "premature close" that leaving the loop below would report.
  const stop = (error: unknown): never => {
    if (source instanceof Readable) source.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  };
  const append = async (bytes: Uint8Array) => {
    let at = 0;
    while (at < bytes.byteLength) {
      if (failure) stop(failure.error);
      if (!file) await startFile();
      const current = file!;
      const take = Math.min(partBytes - current.size, bytes.byteLength - at);
      await current.handle.write(bytes, at, take);
      current.size += take;
      at += take;
      if (current.size === partBytes) await dispatch();
    }
  };

  try {
    if (options.head && options.head.byteLength > 0) await append(options.head);
    for await (const bytes of source) await append(bytes);
    await dispatch();
  } catch (error) {
    failure ??= { error };
  } finally {
    if (file) {
      const { handle, path } = file;
      file = undefined;
      await handle.close().catch(() => undefined);
      await rm(path, { force: true });
    }
    await Promise.allSettled(inFlight);
  }
  if (failure) throw failure.error;
  return Promise.all(results);
}
