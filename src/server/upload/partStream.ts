import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';

/** How much of a chunk file one read hands on. */
const READ_BYTES = 256 * 1024;

/** One stretch of the stream, `partBytes` long but for the last, in a private temporary file. */
export interface Chunk {
  /** 0 for the stream's first bytes (the `head`, if any, starts it). */
  index: number;
  /** The bytes before it in the stream, the `head` included. */
  start: number;
  /** Its whole length, though its bytes may still be arriving. */
  size: number;
  /**
   * Its bytes (call once): read from its file as they are written. The stream fails when the
   * chunk cannot be completed (the source ended short of its declared length, or broke).
   */
  body(): Readable;
}

export interface PartStreamOptions {
  partBytes: number;
  /** Chunks being sent at once, at most; reading waits while that many are. */
  concurrency: number;
  /** Where the chunk files are written (the service's private TMPDIR). */
  directory: string;
  /** Bytes that go before the stream's own (an upload's incomplete last part). */
  head?: Buffer;
  /**
   * The stream's length when it is declared up front (a request's Content-Length). Every chunk's
   * length is then known before its first byte, so each is handed to `send` at once and goes out
   * while it arrives; without it, a chunk is handed on once it is whole.
   */
  length?: number;
}

/** Thrown when the source ends before the length it declared: the chunk under way cannot be sent whole. */
export class ShortBodyError extends Error {
  constructor() {
    super('the request body ended before its declared length');
    this.name = 'ShortBodyError';
  }
}

/** A chunk file being written, which its sender may read up to what is written so far. */
class ChunkFile {
  written = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  /** Kept past its send: the stream was cut while it was written, and what arrived is sent again as a short chunk. */
  keep = false;

  constructor(
    readonly handle: FileHandle,
    readonly path: string,
    /** Its length when known before it is written (it is then sent while written). */
    readonly expected: number | undefined,
    /** The bytes of the stream before it. */
    readonly start: number,
  ) {}

  async append(bytes: Uint8Array, at: number, take: number): Promise<void> {
    await this.handle.write(bytes, at, take);
    this.written += take;
    this.notify();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  /** Resolves once more than `position` bytes are written; throws if the chunk failed first. */
  async beyond(position: number): Promise<void> {
    while (this.written <= position) {
      if (this.failure) throw this.failure;
      await new Promise<void>((wake) => (this.wake = wake));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The file's `size` bytes, read through a handle of their own as they are written. */
  reader(size: number): Readable {
    const read = async function* (file: ChunkFile) {
      const handle = await open(file.path, 'r');
      try {
        for (let position = 0; position < size;) {
          await file.beyond(position);
          const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, file.written - position));
          const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
          position += bytesRead;
          yield buffer.subarray(0, bytesRead);
        }
      } finally {
        await handle.close();
      }
    };
    return Readable.from(read(this), { objectMode: false });
  }
}

/**
 * Cuts `source` into chunks of `partBytes` and hands each to `send`, while the rest still
 * arrives: the bytes are received and sent at once. Each chunk is written to a file of its own,
 * which its sender reads (as it grows, when the length is declared). Reading pauses while
 * `concurrency` chunks are being sent, so the request's socket waits (TCP back-pressure) and at
 * most `concurrency + 1` chunk files exist at any time (the ones being sent, the one being written;
 * with a declared length the one being written is among those sent); memory holds a few reads.
 * The last chunk may be short (or absent when the stream ends on a boundary); `send` decides what
 * to do with it.
 *
 * @tus/s3-store 2.0.7 does the same with a semaphore taken in an event handler its splitter does
 * not wait for, so nothing held the reading back: a slow bucket saw up to 12 parts at once and
 * the temporary folder filled with them (docs/decisions.md).
 *
 * Returns what `send` returned, in stream order. When a send fails, reading stops, the chunk under
 * way fails its body, the sends under way are awaited, every chunk file is removed, and the first
 * failure is thrown. When the stream itself is cut (it fails, or ends short of its declared
 * length), the bytes that arrived are not lost, as tus wants of a client that went away: the chunk
 * under way fails its body (S3 keeps no part of a call cut short), then what it holds is handed to
 * `send` again as a short chunk, which the caller keeps as the upload's unfinished last part. Only
 * when another send failed too is the first failure thrown ({@link ShortBodyError} for a short end).
 */
export async function sendInParts<T>(
  source: AsyncIterable<Uint8Array>,
  options: PartStreamOptions,
  send: (chunk: Chunk) => Promise<T>,
): Promise<T[]> {
  const { partBytes, concurrency, directory } = options;
  const total = options.length === undefined ? undefined : (options.head?.byteLength ?? 0) + options.length;
  const results: Promise<T>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let failure: { error: unknown } | undefined;
  let file: ChunkFile | undefined;
  /** Bytes in the chunks begun before `file`. */
  let begun = 0;

  const dispatch = (chunk: ChunkFile, size: number) => {
    const sent = send({ index: results.length, start: chunk.start, size, body: () => chunk.reader(size) }).finally(() =>
      chunk.keep ? undefined : rm(chunk.path, { force: true }),
    );
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
  /** The chunk under way is complete: its file is closed, and sent now unless it went out at its start. */
  const close = async () => {
    if (!file) return;
    const chunk = file;
    file = undefined;
    begun += chunk.written;
    await chunk.handle.close();
    if (chunk.expected !== undefined) return;
    if (chunk.written === 0) await rm(chunk.path, { force: true });
    else dispatch(chunk, chunk.written);
  };
  const startFile = async () => {
    while (inFlight.size >= concurrency && !failure) await Promise.race(inFlight);
    if (failure) stop(failure.error);
    const path = join(directory, `ovu-part-${randomBytes(8).toString('hex')}`);
    const left = total === undefined ? 0 : total - begun;
    const expected = left > 0 ? Math.min(partBytes, left) : undefined;
    file = new ChunkFile(await open(path, 'wx', PRIVATE_FILE_MODE), path, expected, begun);
    if (expected !== undefined) dispatch(file, expected);
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
      const take = Math.min((current.expected ?? partBytes) - current.written, bytes.byteLength - at);
      await current.append(bytes, at, take);
      at += take;
      if (current.written === (current.expected ?? partBytes)) await close();
    }
  };

  /** The stream was cut (not a send failing): the chunk it cut, if it holds any bytes. */
  let cut: { error: unknown; chunk: ChunkFile | undefined } | undefined;
  try {
    if (options.head && options.head.byteLength > 0) await append(options.head);
    for await (const bytes of source) await append(bytes);
    if (file?.expected !== undefined) throw new ShortBodyError();
    await close();
  } catch (error) {
    // A failed send stops the loop with that failure already recorded; anything else is the stream's.
    if (!failure) cut = { error, chunk: undefined };
    failure ??= { error };
  } finally {
    if (file) {
      const chunk = file;
      file = undefined;
      chunk.keep = cut !== undefined && chunk.written > 0;
      if (chunk.keep) cut!.chunk = chunk;
      chunk.fail(failure?.error instanceof Error ? failure.error : new ShortBodyError());
      await chunk.handle.close().catch(() => undefined);
      if (!chunk.keep) await rm(chunk.path, { force: true });
    }
    await Promise.allSettled(inFlight);
  }
  if (cut) return keepWhatArrived(cut, results, send);
  if (failure) throw failure.error;
  return Promise.all(results);
}

/**
 * After a cut: the sends of the whole chunks, then the cut chunk's bytes as a short chunk of the
 * same index (a streamed one's own send has failed with its body, and is replaced).
 */
async function keepWhatArrived<T>(
  cut: { error: unknown; chunk: ChunkFile | undefined },
  results: Promise<T>[],
  send: (chunk: Chunk) => Promise<T>,
): Promise<T[]> {
  const { chunk } = cut;
  try {
    const whole = chunk?.expected !== undefined ? results.slice(0, -1) : results;
    const settled = await Promise.allSettled(whole);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const values = settled.map((result) => (result as PromiseFulfilledResult<T>).value);
    if (!chunk) return values;
    const rest = await send({ index: whole.length, start: chunk.start, size: chunk.written, body: () => chunk.reader(chunk.written) });
    return [...values, rest];
  } finally {
    if (chunk) await rm(chunk.path, { force: true });
  }
}
