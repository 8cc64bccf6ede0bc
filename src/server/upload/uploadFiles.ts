import { readdirSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import type { DataStore, Upload } from '@tus/server';
import { mediaKey } from '../media/bucketFiles';
import { mediaDir } from '../media/paths';
import type { ServiceConfig } from '../config';
import type { Bucket } from '../storage/bucket';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';
import { BucketStore, type BucketStoreOptions } from './bucketStore';
import { placeSourceFile } from './sourceFile';

/** Where tus keeps upload bytes, and what the service does with them besides tus. */
export interface UploadFiles {
  store: DataStore;
  /** Puts a complete upload in place as the video's source file `name`, whole or not at all. */
  placeSource(upload: Upload, videoId: string, name: string): Promise<void>;
  /** Where a new upload of the video keeps its bytes, given its source file name; undefined: the store's own place. */
  sourceKey(videoId: string, name: string): string | undefined;
  /**
   * Runs one request's store calls with one cache of what they read (one read of each thing per
   * request); `bodyBytes` is the request body's declared length, so its parts can be sent as they arrive.
   */
  within<T>(call: () => Promise<T>, bodyBytes?: number): Promise<T>;
  /**
   * Removes stored uploads no row names (`known` says which do; `uploadOfVideo` names a video's
   * unfinished upload); returns how many. Run before any request.
   */
  sweepStrays(
    known: (uploadId: string) => Promise<boolean>,
    uploadOfVideo: (videoId: string) => Promise<string | undefined>,
  ): Promise<number>;
}

/** A store file or object (`<id>`, `<id>.json`, `<id>.info`, `<id>.part`) names its upload; other names are not the store's. */
export const STORE_NAME = /^([0-9a-f]{32})(\.json|\.info|\.part)?$/;

/** A key under a video's media folder (`media/<videoId>/…`, bucketFiles.ts). */
const MEDIA_KEY = /^media\/([^/]+)\//;

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
    within: (call) => call(),
    sourceKey: () => undefined,
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

/** The bucket store's settings from the service's configuration. */
export function bucketStoreOptions(config: ServiceConfig): BucketStoreOptions {
  return {
    concurrency: config.s3PartConcurrency,
    partMemoryBytes: config.s3PartMemoryBytes,
    // A ticket's limit is one of these (or a page's lower one).
    deferredMaxBytes: Math.max(config.maxUploadBytesFlash, config.maxUploadBytesSilverlight),
    // Without a shared database the instance's tus locks are its own: it is the only one.
    alone: config.databaseUrl === undefined,
  };
}

/**
 * Uploads in the S3 bucket: records at the top level under their id, bytes in a multipart upload
 * at the video's source key (chosen at creation, `sourceKey`), so the finish completes it in place.
 */
export function bucketUploads(bucket: Bucket, options: BucketStoreOptions): UploadFiles {
  const store = new BucketStore(bucket, options);
  return {
    store,
    within: (call, bodyBytes) => store.within(call, bodyBytes),
    sourceKey: (videoId, name) => mediaKey(videoId, name),
    async placeSource(upload, videoId, name) {
      const key = await store.complete(upload.id);
      // An upload begun before keys were chosen at creation holds its bytes under its id.
      if (key !== mediaKey(videoId, name)) await bucket.copy(key, mediaKey(videoId, name), upload.size ?? 0);
    },
    async sweepStrays(known, uploadOfVideo) {
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
      // that no object names, so the unfinished multipart uploads are listed too. One at a video's
      // source key is live only when the `.info` of that video's upload names it.
      const multiparts: { key: string; uploadId: string }[] = [];
      const isOrphan = async ({ key, uploadId }: { key: string; uploadId: string }) => {
        const videoId = MEDIA_KEY.exec(key)?.[1];
        if (videoId === undefined) return isStray(key);
        const owner = await uploadOfVideo(videoId);
        return owner === undefined || (await store.recordedMultipart(owner)) !== uploadId;
      };
      for await (const upload of bucket.multipartUploads()) if (await isOrphan(upload)) multiparts.push(upload);
      // By name, not through the store's remove: that reads the `.info` first and gives up when it
      // is missing or unreadable, which is how a crash leaves it. Deleting a missing key succeeds.
      for (const { key, uploadId } of multiparts) await bucket.abortMultipart(key, uploadId);
      for (const id of strays) await bucket.removeKeys([id, `${id}.info`, `${id}.part`]);
      return strays.size;
    },
  };
}
