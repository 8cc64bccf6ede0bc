import { AsyncLocalStorage } from 'node:async_hooks';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { DataStore, ERRORS, TUS_RESUMABLE, Upload } from '@tus/server';
import type { Bucket } from '../storage/bucket';
import { PartMemory, sendInParts, ShortBodyError, type Chunk } from './partStream';

/** The part size unless an upload is too large for 1000 of them (S3 wants 5 MiB at least). */
const PREFERRED_PART_BYTES = 8 * 1024 ** 2;
/** Swift's limit (S3's is 10 000); parts grow to fit. */
const MAX_PARTS = 1000;
/** Uploads whose record (and state) are kept between requests, at most (the least recent go first). */
const KEPT_UPLOADS = 1000;

export interface BucketStoreOptions {
  /** Parts of one upload sent at once (`S3_PART_CONCURRENCY`). */
  concurrency: number;
  /** Bytes of part buffers shared by the uploads (`S3_PART_MEMORY_BYTES`); parts beyond wait in files. */
  partMemoryBytes: number;
  /**
   * The most an upload of deferred length may grow to (the largest upload any ticket allows): its
   * parts are cut before its length is known, so they are sized for 1000 of them to hold this.
   */
  deferredMaxBytes: number;
  /**
   * This instance alone serves the bucket's uploads (no DATABASE_URL: its tus locks are
   * in-process too), so what an upload's last request left is still what the bucket holds.
   */
  alone: boolean;
}

interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** `<id>.info`: what never changes once the upload's length is known. */
interface UploadRecord {
  upload: Upload;
  key: string;
  multipartId: string;
  /** Every part but the last is this long; chosen at creation and kept in `.info`. */
  partBytes: number;
}

/**
 * What the bucket holds of one upload. `parts` are the multipart upload's parts 1…n without a gap
 * (a part after a gap, left by a PATCH whose earlier part failed, holds no counted bytes and is
 * sent again); `tail` is `<id>.part`, bytes short of a part that begin part n + 1; `done` once the
 * object exists.
 */
interface BucketUpload extends UploadRecord {
  parts: StoredPart[];
  tail: Buffer | undefined;
  /** The tail's length (known without its bytes after a write). */
  tailSize: number;
  /** A `<id>.part` object exists, counted as the tail or not (left behind by an interrupted PATCH). */
  tailObject: boolean;
  done: boolean;
}

/** `<id>.part`: its bytes, and the part they begin (undefined for one written before parts were named). */
interface TailObject {
  bytes: Buffer;
  partNumber: number | undefined;
}

/** What one request's store calls share: each upload's state as read once, and the request body's declared length. */
interface RequestScope {
  states: Map<string, Promise<BucketUpload>>;
  bodyBytes: number | undefined;
}

/** `<id>.info` as written: the upload as tus knows it, with the part size it is cut into. */
interface SavedRecord {
  size?: number | null;
  metadata?: Upload['metadata'];
  creation_date?: string;
  storage?: Upload['storage'];
  part_size?: number;
}

function offsetOf(state: BucketUpload): number {
  if (state.done) return state.upload.size ?? 0;
  return state.parts.reduce((sum, part) => sum + part.size, 0) + state.tailSize;
}

/**
 * The bytes of an upload of `size` in each part: 8 MiB, or more when 1000 of those would not hold
 * it. An upload of deferred length is cut for the most it may reach (`deferredMaxBytes`).
 */
function partBytesFor(size: number): number {
  return size <= PREFERRED_PART_BYTES * MAX_PARTS ? PREFERRED_PART_BYTES : Math.ceil(size / MAX_PARTS);
}

function errorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, Code } = error as { name?: unknown; Code?: unknown };
  return typeof Code === 'string' ? Code : typeof name === 'string' ? name : undefined;
}

const isMissing = (error: unknown) => {
  const name = errorName(error);
  return (
    name === 'NoSuchKey' ||
    name === 'NotFound' ||
    name === 'NoSuchUpload' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
  );
};

/**
 * The tus store for uploads in the bucket, in tusd's layout (`<id>.info` the upload's record with
 * its multipart upload id, `<id>.part` an incomplete last part, one multipart upload per upload)
 * with three differences from @tus/s3-store (docs/storage.md, "What S3 costs"; docs/decisions.md):
 *
 * - **The object's key is chosen at creation** (`upload.storage.path`, set by the creation hook to
 *   the video's source key): CompleteMultipartUpload puts the source in place, nothing is copied.
 * - **State is read once per request**: ListParts and `.part` once each (side by side), kept for
 *   the rest of the request (`within`), updated by the request's own writes. `.info` is read too,
 *   unless this instance already knows the record: once the length is known it never changes, so
 *   it is kept (a bounded number). Instances on one database take turns on an upload, so nothing
 *   else is kept past a request; an instance `alone` keeps the state its last successful write
 *   left, and reads nothing more (but `.part`'s bytes, when there are some) until a write fails.
 * - **Parts go out while the PATCH arrives**, at most `concurrency` at once (`partStream.ts`); with
 *   the body's length declared (Content-Length), each part's UploadPart starts with its first byte.
 *
 * An upload whose multipart upload is gone is complete only if its object exists with its size
 * (not merely because ListParts says NoSuchUpload); one whose parts are all stored but not
 * completed is completed by `complete` (the finisher), so a crash at any point between the last
 * part and the finish leaves a resumable or finishable upload.
 */
export class BucketStore extends DataStore {
  private readonly requests = new AsyncLocalStorage<RequestScope>();
  private readonly kept = new Map<string, { record: UploadRecord; state: BucketUpload | undefined }>();
  /**
   * Writes begun and ended per upload, for the most recent uploads. A read that overlaps a write
   * may hold what the bucket held before it: it must not replace what the write left (a HEAD
   * during a PATCH cut short read no `.part` yet, and kept 0 bytes of it over the write's). An
   * upload dropped from here has a count of none, which no read begun with a count matches.
   */
  private readonly writes = new Map<string, number>();
  private readonly client: S3Client;

  private readonly concurrency: number;
  private readonly memory: PartMemory;
  private readonly deferredPartBytes: number;
  private readonly alone: boolean;

  constructor(
    private readonly target: Bucket,
    options: BucketStoreOptions,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination'];
    this.client = target.client;
    this.concurrency = options.concurrency;
    this.memory = new PartMemory(options.partMemoryBytes);
    this.deferredPartBytes = partBytesFor(options.deferredMaxBytes);
    this.alone = options.alone;
  }

  /**
   * Runs `call` with a state cache of its own (or the caller's, when already inside one): one
   * request's. `bodyBytes` is the request body's declared length (its Content-Length), if any.
   */
  within<T>(call: () => Promise<T>, bodyBytes?: number): Promise<T> {
    return this.requests.getStore() ? call() : this.requests.run({ states: new Map(), bodyBytes }, call);
  }

  private get bucket(): string {
    return this.target.name;
  }

  /** An S3 call whose "the bucket is gone" becomes the 503 the client may retry. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.target.unavailable(error);
    }
  }

  /** A write of the upload begins or ends: a read that overlaps it keeps nothing (`writes`). */
  private changing(id: string): void {
    const writes = (this.writes.get(id) ?? 0) + 1;
    this.writes.delete(id); // set again below, as the most recent
    if (this.writes.size >= 2 * KEPT_UPLOADS) this.writes.delete(this.writes.keys().next().value!);
    this.writes.set(id, writes);
  }

  private remember(id: string, state: BucketUpload): void {
    this.changing(id);
    this.requests.getStore()?.states.set(id, Promise.resolve(state));
    this.keep(state);
  }

  /** What the request is about to do changes what the bucket holds: nothing read of it stands. */
  private forget(id: string): void {
    this.changing(id);
    this.requests.getStore()?.states.delete(id);
    const kept = this.kept.get(id);
    if (kept) kept.state = undefined;
  }

  /**
   * Keeps for later requests what they may trust: the record once its length is known (nothing in
   * it changes any more), and, with this instance alone, the whole state (with neither the tail's
   * bytes, read again when needed, nor a finished upload's parts).
   */
  private keep(state: BucketUpload): void {
    const { upload, key, multipartId, partBytes } = state;
    if (upload.size === undefined && !this.alone) return;
    this.kept.delete(upload.id); // set again below, as the most recent
    if (this.kept.size >= KEPT_UPLOADS) this.kept.delete(this.kept.keys().next().value!);
    const whole = this.alone ? { ...state, tail: undefined, parts: state.done ? [] : state.parts } : undefined;
    this.kept.set(upload.id, { record: { upload, key, multipartId, partBytes }, state: whole });
  }

  /** The upload's state, read from the bucket once per request. */
  private state(id: string): Promise<BucketUpload> {
    const cache = this.requests.getStore()?.states;
    let state = cache?.get(id);
    if (!state) {
      state = this.call(() => this.readState(id));
      cache?.set(id, state);
      // A failed read is not kept: the request's next look reads again.
      state.catch(() => this.forget(id));
    }
    return state;
  }

  private async readState(id: string): Promise<BucketUpload> {
    const writesBefore = this.writes.get(id);
    const known = this.kept.get(id)?.state;
    if (known && known.tailSize === 0) return known;
    // `.part` needs nothing from `.info`: read beside it and the listing, one round trip fewer.
    const tailRead = this.readTail(id);
    tailRead.catch(() => undefined); // awaited below unless an earlier read fails
    if (known) {
      const tail = await tailRead;
      if (tail?.bytes.byteLength === known.tailSize && tail.partNumber === known.parts.length + 1) return { ...known, tail: tail.bytes };
    }
    const kept = this.kept.get(id)?.record;
    const record = kept ?? (await this.readRecord(id));
    let parts: StoredPart[];
    try {
      parts = await this.listParts(record.key, record.multipartId);
    } catch (error) {
      if (errorName(error) !== 'NoSuchUpload' && errorName(error) !== 'NoSuchKey') throw error;
      // Completed, removed, or aborted (by a lifecycle rule, or by hand): `.info` says whether it
      // still exists (a kept record cannot: read again), then only the object can say which.
      this.kept.delete(id);
      const current = kept ? await this.readRecord(id) : record;
      const size = await this.objectSize(current.key);
      if (size === undefined || size !== current.upload.size) throw ERRORS.FILE_NOT_FOUND;
      return { ...current, parts: [], tail: undefined, tailSize: 0, tailObject: false, done: true };
    }
    const tail = await tailRead;
    // The tail counts only when it begins the part after the stored ones: one named otherwise was
    // taken into a part before a crash, or follows a part that failed.
    const counted = tail && (tail.partNumber === undefined || tail.partNumber === parts.length + 1) ? tail.bytes : undefined;
    const state = { ...record, parts, tail: counted, tailSize: counted?.byteLength ?? 0, tailObject: tail !== undefined, done: false };
    if (this.writes.get(id) === writesBefore) this.keep(state);
    return state;
  }

  /** `<id>.info`: the upload as tus knows it, with its multipart upload id in the object's metadata. */
  private async readRecord(id: string): Promise<UploadRecord> {
    let body: string;
    let multipartId: string | undefined;
    try {
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${id}.info` }));
      body = await reply.Body!.transformToString();
      multipartId = reply.Metadata?.['upload-id'];
    } catch (error) {
      if (isMissing(error)) throw ERRORS.FILE_NOT_FOUND;
      throw error;
    }
    let saved: SavedRecord;
    try {
      saved = JSON.parse(body) as SavedRecord;
    } catch {
      throw ERRORS.FILE_NOT_FOUND; // half-written by a crash, or not the store's
    }
    // No length: deferred, until the PATCH that declares it.
    const size = saved.size === undefined || saved.size === null ? undefined : Number(saved.size);
    if (!multipartId || (size !== undefined && !Number.isSafeInteger(size))) throw ERRORS.FILE_NOT_FOUND;
    const key = saved.storage?.path ?? id;
    const upload = new Upload({
      id,
      size,
      offset: 0,
      metadata: saved.metadata,
      creation_date: saved.creation_date,
      storage: saved.storage,
    });
    // Records written before the part size was kept: it followed from the length.
    const partBytes = typeof saved.part_size === 'number' ? saved.part_size : partBytesFor(size ?? 0);
    return { upload, key, multipartId, partBytes };
  }

  /** Writes `<id>.info`: the upload, its part size, and its multipart upload id in the object's metadata. */
  private async saveRecord(state: UploadRecord): Promise<void> {
    const saved: SavedRecord = { ...state.upload, part_size: state.partBytes };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${state.upload.id}.info`,
        Body: JSON.stringify(saved),
        Metadata: { 'upload-id': state.multipartId, 'tus-version': TUS_RESUMABLE },
      }),
    );
  }

  private async listParts(key: string, multipartId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    do {
      const page = await this.client.send(
        new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: multipartId, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? [])
        if (part.PartNumber !== undefined && part.ETag !== undefined)
          parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    parts.sort((a, b) => a.partNumber - b.partNumber);
    const gap = parts.findIndex((part, index) => part.partNumber !== index + 1);
    return gap === -1 ? parts : parts.slice(0, gap);
  }

  private async objectSize(key: string): Promise<number | undefined> {
    try {
      return (await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).ContentLength;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** `<id>.part`, read whole: it is shorter than a part (8 MiB, or the upload's larger part size). */
  private async readTail(id: string): Promise<TailObject | undefined> {
    try {
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${id}.part` }));
      const named = Number(reply.Metadata?.['part-number']);
      return { bytes: Buffer.from(await reply.Body!.transformToByteArray()), partNumber: Number.isSafeInteger(named) ? named : undefined };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The multipart upload id `<id>.info` names, or undefined when it names none (or is missing). */
  async recordedMultipart(id: string): Promise<string | undefined> {
    return this.call(() => this.readRecord(id)).then(
      (record) => record.multipartId,
      (error: unknown) => {
        if (error === ERRORS.FILE_NOT_FOUND) return undefined;
        throw error;
      },
    );
  }

  /** A multipart upload at `upload.storage.path` (the creation hook's choice; the id otherwise), then its record. */
  override async create(upload: Upload): Promise<Upload> {
    const key = upload.storage?.path ?? upload.id;
    upload.creation_date = new Date().toISOString();
    upload.storage = { type: 's3', path: key, bucket: this.bucket };
    const partBytes = upload.size === undefined ? this.deferredPartBytes : partBytesFor(upload.size);
    await this.call(async () => {
      const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
      const state: BucketUpload = {
        upload,
        key,
        multipartId: UploadId!,
        partBytes,
        parts: [],
        tail: undefined,
        tailSize: 0,
        tailObject: false,
        done: false,
      };
      await this.saveRecord(state);
      this.remember(upload.id, state);
    });
    return upload;
  }

  /**
   * The length of an upload created without one, declared by a PATCH (tus runs the PATCH's write
   * next, within the same request): `.info` is written again with it. The parts already sent keep
   * their size; what the PATCH brings ends the upload when it reaches the length.
   */
  override async declareUploadLength(id: string, length: number): Promise<void> {
    await this.within(async () => {
      const state = await this.state(id);
      if (state.upload.size !== undefined || length < offsetOf(state) || length === 0) throw ERRORS.INVALID_LENGTH;
      const upload = new Upload({ ...state.upload, size: length });
      const next = { ...state, upload };
      this.forget(id);
      await this.call(() => this.saveRecord(next));
      this.remember(id, next);
    });
  }

  override async getUpload(id: string): Promise<Upload> {
    return this.within(async () => {
      const state = await this.state(id);
      return new Upload({ ...state.upload, offset: offsetOf(state) });
    });
  }

  override async write(source: Readable, id: string, offset: number): Promise<number> {
    return this.within(async () => {
      const state = await this.state(id);
      // Undefined while deferred: every short stretch then waits in `.part`, as it may not be the last.
      const size = state.upload.size;
      if (state.done || offsetOf(state) !== offset) throw ERRORS.INVALID_OFFSET;
      const { partBytes, tail } = state;
      const firstPart = (state.parts.at(-1)?.partNumber ?? 0) + 1;
      // Where the stream written below starts: the old `.part`'s bytes go first.
      const streamStart = offset - (tail?.byteLength ?? 0);
      this.forget(id); // whatever happens below changes what the bucket holds
      const options = {
        partBytes,
        concurrency: this.concurrency,
        directory: tmpdir(),
        memory: this.memory,
        head: tail,
        length: this.requests.getStore()?.bodyBytes,
      };
      const sent = await this.call(() =>
        sendInParts(source, options, async (chunk): Promise<StoredPart | number> => {
          const partNumber = firstPart + chunk.index;
          if (chunk.size < partBytes && streamStart + chunk.start + chunk.size !== size) {
            // Fewer bytes than a part, not the upload's end: they wait in `<id>.part` (replacing the
            // old one), so every part but the last has one size (R2 requires it; S3 only 5 MiB at
            // least). Named by the part they begin, they count only while that part is the next.
            await this.sendChunk(chunk, (Body, abortSignal) =>
              this.client.send(
                new PutObjectCommand({
                  Bucket: this.bucket,
                  Key: `${id}.part`,
                  Body,
                  ContentLength: chunk.size,
                  Metadata: { 'part-number': String(partNumber) },
                }),
                { abortSignal },
              ),
            );
            return chunk.size;
          }
          const reply = await this.sendChunk(chunk, (Body, abortSignal) =>
            this.client.send(
              new UploadPartCommand({
                Bucket: this.bucket,
                Key: state.key,
                UploadId: state.multipartId,
                PartNumber: partNumber,
                Body,
                ContentLength: chunk.size,
              }),
              { abortSignal },
            ),
          );
          return { partNumber, etag: reply.ETag!, size: chunk.size };
        }).catch((error: unknown) => {
          // The client went away mid-body, or tus ended the body for a request waiting on this
          // upload, and what arrived could not be kept either.
          throw error instanceof ShortBodyError ? ERRORS.ABORTED : error;
        }),
      );
      const parts = [...state.parts, ...sent.filter((result) => typeof result !== 'number')];
      const tailSize = sent.find((result) => typeof result === 'number') ?? 0;
      const next: BucketUpload = { ...state, parts, tail: undefined, tailSize, tailObject: tailSize > 0, done: false };
      const finishing = offsetOf(next) === size;
      // An old `.part` that no new one replaced is deleted once the parts that took its bytes are
      // stored: a crash before leaves it uncounted (it names a stored part), never lost.
      const dropTail =
        state.tailObject && tailSize === 0
          ? this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: `${id}.part` }))
          : undefined;
      await this.call(() => Promise.all([dropTail, finishing ? this.completeMultipart(next) : undefined]));
      next.done = finishing;
      this.remember(id, next);
      return offsetOf(next);
    });
  }

  /**
   * Sends a chunk's bytes through `send`. A body that fails (the request ended short, or broke)
   * aborts the call, so the bucket stores nothing of it (S3 keeps a part or object only whole).
   */
  private async sendChunk<T>(chunk: Chunk, send: (body: Readable, abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const body = chunk.body();
    const abort = new AbortController();
    body.once('error', (error) => abort.abort(error));
    try {
      return await send(body, abort.signal);
    } catch (error) {
      // Cut by its own body (the request ended short or broke): not the bucket's doing.
      if (abort.signal.aborted) throw error;
      // Otherwise the bucket's when it does not answer now either, whatever the call's own error
      // said: a 503 the client retries. This error also ends the request's stream (partStream.ts),
      // so it is the one tus answers with.
      throw await this.target.unavailableNow(error);
    }
  }

  private async completeMultipart(state: BucketUpload): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: state.key,
        UploadId: state.multipartId,
        MultipartUpload: { Parts: state.parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
      }),
    );
  }

  /**
   * Puts a complete upload's object in place: nothing when it is there, CompleteMultipartUpload
   * when every byte is in parts but the multipart upload was not completed (a crash, a failed
   * finish). Returns the object's key.
   */
  async complete(id: string): Promise<string> {
    return this.within(async () => {
      const state = await this.state(id);
      if (!state.done) {
        if (offsetOf(state) !== state.upload.size || state.tailSize > 0) throw ERRORS.INVALID_OFFSET;
        // A `.part` left by a crash after the part that took its bytes was stored goes with it.
        const dropTail = state.tailObject
          ? this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: `${id}.part` }))
          : undefined;
        await this.call(() => Promise.all([dropTail, this.completeMultipart(state)]));
        this.remember(id, { ...state, tailObject: false, done: true });
      }
      return state.key;
    });
  }

  /** Aborts the multipart upload and deletes the record and the incomplete part; a complete object under the video's key stays. */
  override async remove(id: string): Promise<void> {
    await this.within(async () => {
      const { key, multipartId } = await this.call(() => this.readRecord(id));
      this.forget(id);
      this.kept.delete(id);
      await this.call(async () => {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: multipartId }))
          .catch((error: unknown) => {
            if (!isMissing(error)) throw error;
          });
        // An upload made before keys were chosen at creation keeps its bytes under its id.
        const keys = key === id ? [id, `${id}.info`, `${id}.part`] : [`${id}.info`, `${id}.part`];
        for (const name of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name }));
      });
    });
  }
}
