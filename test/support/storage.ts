import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { DataStore } from '@tus/server';
import { readConfig } from '../../src/server/config';
import type { ServiceContext } from '../../src/server/context';
import { openMediaFiles, type MediaFiles } from '../../src/server/media/mediaFiles';
import { mediaKey } from '../../src/server/media/bucketFiles';
import { mediaDir } from '../../src/server/media/paths';
import { bucketStoreOptions, bucketUploads, diskUploads, STORE_NAME } from '../../src/server/upload/uploadFiles';
import { SHARED_S3_ENV, sharedS3, startS3, type TestS3 } from './s3';
import { testSwitch } from './testSwitch';

/**
 * Where a test service keeps its files, picked by `TEST_STORAGE` beside `TEST_DATABASE` so that
 * one test runs on both without being written twice: `disk` (the default) is DATA_DIR; `s3` gives
 * every DATA_DIR a fresh bucket of its own, in the Swift the run shares (`scaledServers.ts`) or
 * else in a throwaway one of the test file's own, started before the file's tests and stopped
 * after them (see `scaledSetup.ts`).
 */
const testStorage = () => testSwitch('TEST_STORAGE', ['disk', 's3']);

type Server = Pick<TestS3, 'newBucket' | 'env' | 'stop'>;

function openServer(): Promise<Server> {
  const shared = process.env[SHARED_S3_ENV];
  if (!shared) return startS3();
  // The buckets stay until the run's end removes the server: emptying them would cost more.
  const s3 = sharedS3(shared);
  return Promise.resolve({ ...s3, stop: async () => s3.close() });
}

let server: Promise<Server> | undefined;
/** A DATA_DIR keeps its bucket across service restarts, as its folders would keep the files. */
const buckets = new Map<string, Promise<Record<string, string>>>();

/** Starts this test file's Swift when TEST_STORAGE asks for one; from a hook, so its start is not timed against a test. */
export async function startTestStorage(): Promise<void> {
  if (testStorage() === 's3') await (server ??= openServer());
}

/** The S3_* env for a service on `dataDir`: empty on disk. */
export function storageEnvFor(dataDir: string): Promise<Record<string, string>> {
  if (testStorage() === 'disk') return Promise.resolve({});
  let env = buckets.get(dataDir);
  if (!env) {
    server ??= openServer();
    env = server.then(async (s3) => s3.env(await s3.newBucket()));
    buckets.set(dataDir, env);
  }
  return env;
}

/** Stops the Swift, if this test file started one; its processes are killed on exit otherwise. */
export async function stopTestStorage(): Promise<void> {
  const started = server;
  server = undefined;
  buckets.clear();
  if (started) await (await started).stop();
}

// What a service stored, read from wherever it keeps its files (its bucket, or DATA_DIR), so that
// a test checks the bytes without knowing which.

/** A running service, or just the config and files of one. */
type StoringService = { context: Pick<ServiceContext, 'config' | 'files'> };

/** A video's stored file (source, play file, picture), or undefined when there is none. */
export async function storedMedia(service: StoringService, videoId: string, name: string): Promise<Buffer | undefined> {
  const bucket = service.context.files.bucket;
  if (!bucket) {
    const file = join(mediaDir(service.context.config.dataDir, videoId), name);
    return existsSync(file) ? readFileSync(file) : undefined;
  }
  try {
    const reply = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: mediaKey(videoId, name) }));
    return Buffer.from(await reply.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Puts `file` in place as the video's stored file `name`, as a finished upload or download would. */
export async function placeMedia(service: StoringService, videoId: string, name: string, file: string): Promise<void> {
  const bucket = service.context.files.bucket;
  if (bucket) return bucket.upload(mediaKey(videoId, name), file);
  const dir = mediaDir(service.context.config.dataDir, videoId);
  mkdirSync(dir, { recursive: true });
  copyFileSync(file, join(dir, name));
}

/** The names of a video's stored files, sorted. */
export async function storedMediaNames(service: StoringService, videoId: string): Promise<string[]> {
  const bucket = service.context.files.bucket;
  if (!bucket) {
    const dir = mediaDir(service.context.config.dataDir, videoId);
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  }
  const prefix = mediaKey(videoId, '');
  const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name, Prefix: prefix }));
  return (page.Contents ?? []).map((entry) => entry.Key!.slice(prefix.length)).sort();
}

/** The service's own tus store on its files, one per service: it reads and writes what it holds as tus does. */
const uploadStores = new WeakMap<MediaFiles, DataStore>();

function uploadStore({ context: { config, files } }: StoringService): DataStore {
  let store = uploadStores.get(files);
  if (!store) {
    store = (
      files.bucket ? bucketUploads(files.bucket, bucketStoreOptions(config)) : diskUploads(join(config.dataDir, 'uploads'), config.dataDir)
    ).store;
    uploadStores.set(files, store);
  }
  return store;
}

/** Bytes the service holds for tus upload `uploadId` (0 when it holds none), as tus would report its offset. */
export async function storedUploadBytes(service: StoringService, uploadId: string): Promise<number> {
  // The S3 store caches an upload's metadata; asked about one removed since, it would report it complete.
  const bucket = service.context.files.bucket;
  if (bucket && !(await bucket.head(`${uploadId}.info`))) return 0;
  try {
    return (await uploadStore(service).getUpload(uploadId)).offset;
  } catch {
    return 0;
  }
}

/** The ids of the tus uploads the service holds anything of (bytes, metadata, an unfinished multipart upload), sorted. */
export async function storedUploadIds(service: StoringService): Promise<string[]> {
  const bucket = service.context.files.bucket;
  const ids = new Set<string>();
  const add = (name: string | undefined) => {
    const id = STORE_NAME.exec(name ?? '')?.[1];
    if (id !== undefined) ids.add(id);
  };
  if (!bucket) {
    const dir = join(service.context.config.dataDir, 'uploads');
    if (existsSync(dir)) readdirSync(dir).forEach(add);
    return [...ids].sort();
  }
  const [objects, multiparts] = await Promise.all([
    bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name, Delimiter: '/' })),
    bucket.client.send(new ListMultipartUploadsCommand({ Bucket: bucket.name })),
  ]);
  for (const object of objects.Contents ?? []) add(object.Key);
  for (const upload of multiparts.Uploads ?? []) add(upload.Key);
  return [...ids].sort();
}

/**
 * Leaves what a crash mid-creation leaves of an upload no row names: on disk its file and a `.json`
 * that is not the store's; in S3 an object, an unreadable `.info` and an unfinished multipart upload.
 */
export async function placeStrayUpload(service: StoringService, uploadId: string): Promise<void> {
  const bucket = service.context.files.bucket;
  if (!bucket) {
    for (const name of [uploadId, `${uploadId}.json`]) writeFileSync(join(service.context.config.dataDir, 'uploads', name), 'left behind');
    return;
  }
  for (const name of [uploadId, `${uploadId}.info`])
    await bucket.client.send(new PutObjectCommand({ Bucket: bucket.name, Key: name, Body: 'left behind' }));
  await bucket.client.send(new CreateMultipartUploadCommand({ Bucket: bucket.name, Key: uploadId }));
}

/** Writes `bytes` into tus upload `uploadId` at `offset` as the service's tus store does, without its hooks (as a crash would leave them). */
export async function writeUploadBytes(service: StoringService, uploadId: string, offset: number, bytes: Buffer): Promise<void> {
  await uploadStore(service).write(Readable.from([bytes]), uploadId, offset);
}

/** Removes tus upload `uploadId` from the store (bytes and metadata), as a lost file would leave its row. */
export async function removeStoredUpload(service: StoringService, uploadId: string): Promise<void> {
  await uploadStore(service).remove(uploadId);
}

/** Runs `use` with the files of a service on `dataDir` that is not running, opened as it would open them. */
export async function withFilesOf<T>(dataDir: string, use: (service: StoringService) => Promise<T>): Promise<T> {
  const config = readConfig({ DATA_DIR: dataDir, ...(await storageEnvFor(dataDir)) });
  const files = await openMediaFiles(config);
  try {
    return await use({ context: { config, files } });
  } finally {
    files.close();
  }
}
