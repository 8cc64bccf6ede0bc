import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';

/** How much of a chunk one read hands on to its sender. */
const READ_BYTES = 256 * 1024;

/** One stretch of the stream, `partBytes` long but for the last, in memory or a private temporary file. */
export interface Chunk {
  /** 0 for the stream's first bytes (the `head`, if any, starts it). */
  index: number;
  /** The bytes before it in the stream, the `head` included. */
  start: number;
  /** Its whole length, though its bytes may still be arriving. */
  size: number;
  /**
   * Its bytes (call once): read as they are written. The stream fails when the chunk cannot be
   * completed (the source ended short of its declared length, or broke).
   */
  body(): Readable;
}

/**
 * Part buffers, reused, up to `limit` bytes in all (`S3_PART_MEMORY_BYTES`), shared by every upload
 * of one store. A chunk that finds no room waits in a file instead. Memory spares each byte a
 * write and a read of the file (bench/s3Upload.ts); reuse spares the first touch of new memory,
 * which costs more than the copy. A reused buffer holds an earlier part's bytes beyond what a
 * chunk has written: nothing reads past `written`.
 */
export class PartMemory {
  private allocated = 0;
  private readonly free: Buffer[] = [];

  constructor(private readonly limit: number) {}

  take(size: number): Buffer | undefined {
    const same = this.free.findIndex((buffer) => buffer.byteLength === size);
    if (same !== -1) return this.free.splice(same, 1)[0];
    // Free buffers of another part size make way.
    while (this.allocated + size > this.limit && this.free.length > 0) this.allocated -= this.free.pop()!.byteLength;
    if (this.allocated + size > this.limit) return undefined;
    this.allocated += size;
    return Buffer.allocUnsafeSlow(size);
  }

  give(buffer: Buffer): void {
    this.free.push(buffer);
  }
}

export interface PartStreamOptions {
  partBytes: number;
  /** Chunks being sent at once, at most; reading waits while that many are. */
  concurrency: number;
  /** Where chunks go that find no room in `memory` (the service's private TMPDIR). */
  directory: string;
  memory: PartMemory;
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

/** Reads a chunk's bytes from a position, for one reader. */
interface ChunkReading {
  read(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A chunk being written, which its sender may read up to what is written so far. */
abstract class ChunkBytes {
  written = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  /** Kept past its send: the stream was cut while it was written, and what arrived is sent again as a short chunk. */
  keep = false;

  /** Its bytes are gone (`discard`): it can be neither read nor kept. */
  discarded = false;

  constructor(
    /** Its length when known before it is written (it is then sent while written). */
    readonly expected: number | undefined,
    /** The bytes of the stream before it. */
    readonly start: number,
  ) {}

  protected abstract store(bytes: Uint8Array): Promise<void>;
  protected abstract reading(): Promise<ChunkReading>;
  protected abstract release(): Promise<void>;
  /** No more bytes will be written. */
  abstract close(): Promise<void>;

  /** Its bytes are not needed any more: called once its send has settled, as a buffer may be reused at once. */
  discard(): Promise<void> {
    if (this.discarded) return Promise.resolve();
    this.discarded = true;
    return this.release();
  }

  async append(bytes: Uint8Array, at: number, take: number): Promise<void> {
    await this.store(bytes.subarray(at, at + take));
    this.written += take;
    this.notify();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  /** Resolves once more than `position` bytes are written; throws if the chunk failed first. */
  private async beyond(position: number): Promise<void> {
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

  /** Its first `size` bytes, read as they are written. */
  reader(size: number): Readable {
    const read = async function* (chunk: ChunkBytes) {
      const reading = await chunk.reading();
      try {
        for (let position = 0; position < size;) {
          await chunk.beyond(position);
          const bytes = await reading.read(position, Math.min(READ_BYTES, chunk.written - position));
          position += bytes.byteLength;
          yield bytes;
        }
      } finally {
        await reading.close();
      }
    };
    return Readable.from(read(this), { objectMode: false });
  }
}

/** A chunk in a part buffer of the pool: its sender reads views of it, never a copy. */
class MemoryChunk extends ChunkBytes {
  constructor(
    private buffer: Buffer | undefined,
    private readonly memory: PartMemory,
    expected: number | undefined,
    start: number,
  ) {
    super(expected, start);
  }

  private held(): Buffer {
    if (!this.buffer) throw new Error('the chunk was discarded');
    return this.buffer;
  }

  protected store(bytes: Uint8Array): Promise<void> {
    this.held().set(bytes, this.written);
    return Promise.resolve();
  }

  protected reading(): Promise<ChunkReading> {
    return Promise.resolve({
      read: (position, length) => Promise.resolve(this.held().subarray(position, position + length)),
      close: () => Promise.resolve(),
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  protected release(): Promise<void> {
    if (this.buffer) this.memory.give(this.buffer);
    this.buffer = undefined;
    return Promise.resolve();
  }
}

/** A chunk in a private temporary file, read through a handle of each reader's own. */
class FileChunk extends ChunkBytes {
  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    expected: number | undefined,
    start: number,
  ) {
    super(expected, start);
  }

  protected async store(bytes: Uint8Array): Promise<void> {
    await this.handle.write(bytes, 0, bytes.byteLength, this.written);
  }

  protected async reading(): Promise<ChunkReading> {
    const handle = await open(this.path, 'r');
    return {
      async read(position, length) {
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      },
      close: () => handle.close(),
    };
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => undefined);
  }

  protected release(): Promise<void> {
    return rm(this.path, { force: true });
  }
}

/** A new chunk: in a part buffer when the pool has room, else in a private temporary file. */
async function newChunk(options: PartStreamOptions, expected: number | undefined, start: number): Promise<ChunkBytes> {
  const buffer = options.memory.take(options.partBytes);
  if (buffer) return new MemoryChunk(buffer, options.memory, expected, start);
  const path = join(options.directory, `ovu-part-${randomBytes(8).toString('hex')}`);
  return new FileChunk(await open(path, 'wx', PRIVATE_FILE_MODE), path, expected, start);
}

/**
 * Cuts `source` into chunks of `partBytes` and hands each to `send`, while the rest still
 * arrives: the bytes are received and sent at once. Each chunk is written to a part buffer of
 * `memory` (or a file of its own when the pool is full), which its sender reads as it grows when
 * the length is declared. Reading pauses while `concurrency` chunks are being sent, so the
 * request's socket waits (TCP back-pressure) and at most `concurrency + 1` chunks exist at any
 * time (the ones being sent, the one being written; with a declared length the one being written
 * is among those sent). The last chunk may be short (or absent when the stream ends on a
 * boundary); `send` decides what to do with it.
 *
 * @tus/s3-store 2.0.7 does the same with a semaphore taken in an event handler its splitter does
 * not wait for, so nothing held the reading back: a slow bucket saw up to 12 parts at once and
 * the temporary folder filled with them (docs/decisions.md).
 *
 * Returns what `send` returned, in stream order. When a send fails, reading stops, the chunk under
 * way fails its body, the sends under way are awaited, every chunk is discarded, and the first
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
  const { partBytes, concurrency } = options;
  const total = options.length === undefined ? undefined : (options.head?.byteLength ?? 0) + options.length;
  const results: Promise<T>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let failure: { error: unknown } | undefined;
  let current: ChunkBytes | undefined;
  /** Bytes in the chunks begun before `current`. */
  let begun = 0;

  const dispatch = (chunk: ChunkBytes, size: number) => {
    const sent = send({ index: results.length, start: chunk.start, size, body: () => chunk.reader(size) }).finally(() =>
      chunk.keep ? undefined : chunk.discard(),
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
  /** The chunk under way is complete: closed, and sent now unless it went out at its start. */
  const close = async () => {
    if (!current) return;
    const chunk = current;
    current = undefined;
    begun += chunk.written;
    await chunk.close();
    if (chunk.expected !== undefined) return;
    if (chunk.written === 0) await chunk.discard();
    else dispatch(chunk, chunk.written);
  };
  const startChunk = async () => {
    while (inFlight.size >= concurrency && !failure) await Promise.race(inFlight);
    if (failure) stop(failure.error);
    const left = total === undefined ? 0 : total - begun;
    const expected = left > 0 ? Math.min(partBytes, left) : undefined;
    current = await newChunk(options, expected, begun);
    if (expected !== undefined) dispatch(current, expected);
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
      if (!current) await startChunk();
      const chunk = current!;
      const take = Math.min((chunk.expected ?? partBytes) - chunk.written, bytes.byteLength - at);
      await chunk.append(bytes, at, take);
      at += take;
      if (chunk.written === (chunk.expected ?? partBytes)) await close();
    }
  };

  /** The stream was cut (not a send failing): the chunk it cut, if it holds any bytes. */
  let cut: { error: unknown; chunk: ChunkBytes | undefined } | undefined;
  try {
    if (options.head && options.head.byteLength > 0) await append(options.head);
    for await (const bytes of source) await append(bytes);
    if (current?.expected !== undefined) throw new ShortBodyError();
    await close();
  } catch (error) {
    // A failed send stops the loop with that failure already recorded; anything else is the stream's.
    if (!failure) cut = { error, chunk: undefined };
    failure ??= { error };
  } finally {
    if (current) {
      const chunk = current;
      current = undefined;
      chunk.keep = cut !== undefined && chunk.written > 0 && !chunk.discarded;
      if (chunk.keep) cut!.chunk = chunk;
      chunk.fail(failure?.error instanceof Error ? failure.error : new ShortBodyError());
      await chunk.close();
      // One under way since its start is discarded when its send ends (it may be reading still).
      if (!chunk.keep && chunk.expected === undefined) await chunk.discard();
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
  cut: { error: unknown; chunk: ChunkBytes | undefined },
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
    await chunk?.discard();
  }
}
