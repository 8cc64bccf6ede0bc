import { createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../config';
import { ServiceError } from '../errors';
import { PRIVATE_FILE_MODE } from './privateModes';
import { bucketProblem, isBucketUnavailable, s3ClientFor } from './s3Client';

/** One request carries at most this much; larger files go in parts (S3's single PUT and COPY stop at 5 GiB). */
const PART_BYTES = 64 * 1024 ** 2;
const COPY_PART_BYTES = 1024 ** 3;
const SINGLE_COPY_MAX = 5 * 1024 ** 3;

export interface ObjectInfo {
  size: number;
  etag: string;
  lastModified: Date;
}

/** The 503 (115) a client may retry: `unavailable` and `unavailableNow` answer with it. */
const storageUnavailable = () => new ServiceError('STORAGE_UNAVAILABLE', 'the S3 bucket cannot be reached now; try again later');

/**
 * The service's reads and writes of the S3 bucket (outside the tus store). Every call that fails
 * because the bucket cannot be reached throws ServiceError STORAGE_UNAVAILABLE (503, the client may
 * retry); every write is whole or absent, as S3 makes an object visible only once complete.
 */
export class Bucket {
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = s3ClientFor(settings);
  }

  get name(): string {
    return this.settings.bucket;
  }

  /** Why the bucket cannot be used now, or undefined. */
  problem(): Promise<string | undefined> {
    return bucketProblem(this.client, this.settings);
  }

  /**
   * Turns "the bucket is gone" into the 503 the caller's client may retry; other errors pass
   * unchanged. The reply names neither the bucket nor its endpoint (the request's log line does).
   */
  unavailable(error: unknown): unknown {
    return isBucketUnavailable(error) ? storageUnavailable() : error;
  }

  /**
   * As `unavailable`, and an error of no kind it knows counts as the bucket's too when the bucket
   * does not answer now (HeadBucket). A streamed body's call cut by the bucket going away fails in
   * ways the SDK does not name as the server's: its retry, for one, finds the body already read.
   */
  async unavailableNow(error: unknown): Promise<unknown> {
    if (isBucketUnavailable(error)) return storageUnavailable();
    return (await this.problem()) === undefined ? error : storageUnavailable();
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** The object's size and validators, or undefined when there is no such key. */
  head(key: string): Promise<ObjectInfo | undefined> {
    return this.call(async () => {
      try {
        const reply = await this.client.send(new HeadObjectCommand({ Bucket: this.name, Key: key }));
        return { size: reply.ContentLength ?? 0, etag: reply.ETag ?? '""', lastModified: reply.LastModified ?? new Date(0) };
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      }
    });
  }

  /** Bytes `start`…`end` (inclusive) of the object, as one ranged GET. */
  read(key: string, start: number, end: number): Promise<Readable> {
    return this.call(async () => {
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.name, Key: key, Range: `bytes=${start}-${end}` }));
      return reply.Body as Readable;
    });
  }

  /** Copies the object into a new private file at `path`. */
  download(key: string, path: string): Promise<void> {
    return this.call(async () => {
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.name, Key: key }));
      await pipeline(reply.Body as Readable, createWriteStream(path, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
    });
  }

  /** Stores the file at `path` under `key`, in parts when it is large. */
  upload(key: string, path: string): Promise<void> {
    return this.call(async () => {
      const { size } = await stat(path);
      if (size <= PART_BYTES) {
        const file = await open(path);
        try {
          await this.client.send(
            new PutObjectCommand({ Bucket: this.name, Key: key, Body: file.createReadStream({ autoClose: false }), ContentLength: size }),
          );
        } finally {
          await file.close();
        }
        return;
      }
      await this.multipart(key, size, PART_BYTES, async (uploadId, partNumber, start, end) => {
        const file = await open(path);
        try {
          const body = file.createReadStream({ start, end, autoClose: false });
          const reply = await this.client.send(
            new UploadPartCommand({
              Bucket: this.name,
              Key: key,
              UploadId: uploadId,
              PartNumber: partNumber,
              Body: body,
              ContentLength: end - start + 1,
            }),
          );
          return reply.ETag;
        } finally {
          await file.close();
        }
      });
    });
  }

  /** Copies one object to another key inside the bucket, without the bytes passing through the service. */
  copy(fromKey: string, toKey: string, size: number): Promise<void> {
    return this.call(async () => {
      const source = `${this.name}/${fromKey.split('/').map(encodeURIComponent).join('/')}`;
      if (size <= SINGLE_COPY_MAX) {
        await this.client.send(new CopyObjectCommand({ Bucket: this.name, Key: toKey, CopySource: source }));
        return;
      }
      await this.multipart(toKey, size, COPY_PART_BYTES, async (uploadId, partNumber, start, end) => {
        const reply = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.name,
            Key: toKey,
            UploadId: uploadId,
            PartNumber: partNumber,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        return reply.CopyPartResult?.ETag;
      });
    });
  }

  /** One multipart upload of `size` bytes in `partBytes` parts; aborted (nothing left behind) when a part fails. */
  private async multipart(
    key: string,
    size: number,
    partBytes: number,
    sendPart: (uploadId: string, partNumber: number, start: number, end: number) => Promise<string | undefined>,
  ): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.name, Key: key }));
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0, partNumber = 1; start < size; start += partBytes, partNumber++) {
        const end = Math.min(size, start + partBytes) - 1;
        parts.push({ PartNumber: partNumber, ETag: await sendPart(UploadId!, partNumber, start, end) });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.name, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.name, Key: key, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  /** Every key at the bucket's top level (no `/` in it), page by page. */
  async *topLevelKeys(): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.name, Delimiter: '/', ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) yield object.Key;
      token = page.NextContinuationToken;
    } while (token);
  }

  /** Every unfinished multipart upload in the bucket, page by page. */
  async *multipartUploads(): AsyncGenerator<{ key: string; uploadId: string }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (let truncated = true; truncated;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.name, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const upload of page.Uploads ?? [])
        if (upload.Key !== undefined && upload.UploadId !== undefined) yield { key: upload.Key, uploadId: upload.UploadId };
      ({ NextKeyMarker: keyMarker, NextUploadIdMarker: uploadIdMarker } = page);
      truncated = page.IsTruncated === true;
    }
  }

  /** Aborts a multipart upload; one already gone is no error. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.name, Key: key, UploadId: uploadId })).catch(() => undefined);
  }

  /** Deletes objects by name, one at a time; deleting a missing key succeeds, and a failure is left for the next sweep. */
  async removeKeys(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.name, Key: key })).catch(() => undefined);
  }

  close(): void {
    this.client.destroy();
  }
}
