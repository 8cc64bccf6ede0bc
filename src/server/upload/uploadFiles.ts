import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { S3Store, type MetadataValue, type Options as S3StoreOptions } from '@tus/s3-store';
import { ERRORS, type DataStore, type Upload } from '@tus/server';
import { mediaKey } from '../media/bucketFiles';
import { mediaDir } from '../media/paths';
import type { Bucket } from '../storage/bucket';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';
import { isBucketUnavailable, s3ClientConfig, useContentMd5ForDeleteObjects } from '../storage/s3Client';
import { placeSourceFile } from './sourceFile';

/** Where tus keeps upload bytes, and what the service does with them besides tus. */
export interface UploadFiles {
  store: DataStore;
  /** Puts a complete upload in place as the video's source file `name`, whole or not at all. */
  placeSource(upload: Upload, videoId: string, name: string): Promise<void>;
  /** Removes stored uploads no row names (`known` says which do); returns how many. Run before any request. */
  sweepStrays(known: (uploadId: string) => Promise<boolean>): Promise<number>;
}

/** A store file or object (`<id>`, `<id>.json`, `<id>.info`, `<id>.part`) names its upload; other names are not the store's. */
export const STORE_NAME = /^([0-9a-f]{32})(\.json|\.info|\.part)?$/;

/**
 * FileStore's constructor starts an async mkdir whose callback throws, uncaught, when it fails
 * (e.g. the data directory was removed right after start-up). The folder is made synchronously
 * by the caller, so that check is skipped.
 */
class PreparedFileStore extends FileStore {
  /** The store writes with the default mode; files under DATA_DIR are the service's alone. */
  override async create(file: Upload): Promise<Upload> {
    const created = await super.create(file);
    const path = join(this.directory, file.id);
    await Promise.all([chmod(path, PRIVATE_FILE_MODE), chmod(`${path}.json`, PRIVATE_FILE_MODE)]);
    return created;
  }
}
// The method is private in FileStore's types, so it is replaced on the prototype rather than overridden.
(PreparedFileStore.prototype as unknown as { checkOrCreateDirectory(): void }).checkOrCreateDirectory = () => {};

/** Uploads in `directory` (DATA_DIR/uploads, made by the caller); the source is a hard link to the tus file. */
export function diskUploads(directory: string, dataDir: string): UploadFiles {
  // No expirationPeriodInMilliseconds: the store's expiry cleanup deletes finished uploads too.
  const store = new PreparedFileStore({ directory });
  return {
    store,
    async placeSource(upload, videoId, name) {
      if (!upload.storage?.path) throw new Error(`upload ${upload.id} has no file`);
      await placeSourceFile(upload.storage.path, mediaDir(dataDir, videoId), name);
    },
    async sweepStrays(known) {
      let removed = 0;
      for (const name of readdirSync(directory)) {
        const id = STORE_NAME.exec(name)?.[1];
        if (id === undefined || (await known(id))) continue;
        rmSync(join(directory, name), { force: true });
        removed++;
      }
      return removed;
    },
  };
}

/**
 * The store's cache of an upload's record (`<id>.info`: its multipart upload id and size), kept
 * for one store call only. The store's default keeps it in the process until that process
 * finishes or removes the upload; with several instances another one often does, so the entry
 * would stay for good (memory growing with every upload) and an upload removed through another
 * instance would still look present here, and complete (its multipart upload gone). Offsets and
 * part numbers are read from the bucket (ListParts) on every call either way.
 */
class CallCache implements NonNullable<S3StoreOptions['cache']> {
  private readonly calls = new AsyncLocalStorage<Map<string, MetadataValue>>();

  /** Runs `call` with a cache of its own (or the caller's, when already inside one). */
  within<T>(call: () => Promise<T>): Promise<T> {
    return this.calls.getStore() ? call() : this.calls.run(new Map(), call);
  }

  async get(id: string): Promise<MetadataValue | undefined> {
    return this.calls.getStore()?.get(id);
  }

  async set(id: string, value: MetadataValue): Promise<void> {
    this.calls.getStore()?.set(id, value);
  }

  async delete(id: string): Promise<void> {
    this.calls.getStore()?.delete(id);
  }
}

/**
 * @tus/s3-store with the settings S3-compatible servers need (docs/storage.md): no object tags
 * (Swift, R2 and others have none; the store's expiry, which would use them, is never run), at
 * most 1000 parts (Swift's limit; S3's is 10 000), Content-MD5 on DeleteObjects, and no upload
 * records cached between calls (several instances write one upload in turns).
 * `getUpload` keeps "the bucket is gone" apart from "no such upload": the store calls both 404.
 */
class BucketStore extends S3Store {
  private readonly target: Bucket;
  private readonly calls: CallCache;

  constructor(target: Bucket) {
    const calls = new CallCache();
    super({
      s3ClientConfig: { ...s3ClientConfig(target.settings), bucket: target.name },
      useTags: false,
      maxMultipartParts: 1000,
      cache: calls,
    });
    this.target = target;
    this.calls = calls;
    useContentMd5ForDeleteObjects(this.client);
  }

  override getUpload(id: string): Promise<Upload> {
    // One call, one read of the record: the check here and the store's own share it.
    return this.calls.within(async () => {
      try {
        await this.getMetadata(id);
      } catch (error) {
        throw isBucketUnavailable(error) ? this.target.unavailable(error) : ERRORS.FILE_NOT_FOUND;
      }
      return super.getUpload(id);
    });
  }

  /** The store's remove leaves an upload's incomplete last part (`<id>.part`, under 5 MiB) behind. */
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.client.deleteObject({ Bucket: this.target.name, Key: `${id}.part` });
  }
}

/** Uploads in the S3 bucket under their id; the source is a copy made inside the bucket. */
export function bucketUploads(bucket: Bucket): UploadFiles {
  const store = new BucketStore(bucket);
  return {
    store,
    placeSource: (upload, videoId, name) => bucket.copy(upload.id, mediaKey(videoId, name), upload.size ?? 0),
    async sweepStrays(known) {
      const strays = new Set<string>();
      const isStray = async (key: string | undefined) => {
        const id = STORE_NAME.exec(key ?? '')?.[1];
        if (id === undefined || strays.has(id)) return id !== undefined;
        if (await known(id)) return false;
        strays.add(id);
        return true;
      };
      for await (const key of bucket.topLevelKeys()) await isStray(key);
      // A crash between the multipart upload's creation and its `.info` leaves a multipart upload
      // that no object names, so the unfinished multipart uploads are listed too.
      const multiparts: { key: string; uploadId: string }[] = [];
      for await (const upload of bucket.multipartUploads()) if (await isStray(upload.key)) multiparts.push(upload);
      // By name, not through the store's remove: that reads the `.info` first and gives up when it
      // is missing or unreadable, which is how a crash leaves it. Deleting a missing key succeeds.
      for (const { key, uploadId } of multiparts) await bucket.abortMultipart(key, uploadId);
      for (const id of strays) await bucket.removeKeys([id, `${id}.info`, `${id}.part`]);
      return strays.size;
    },
  };
}
