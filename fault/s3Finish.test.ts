import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VideoStatus } from '../src/shared/videoStatus';
import { startS3, type TestS3 } from '../test/support/s3';
import { startS3Proxy, type S3Proxy } from '../test/support/s3Proxy';
import { openUploader, registerVideo, sha256, tusCreate, tusHead, tusPatch } from '../test/uploadHelpers';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { waitUntil } from './support/processes';

// kill -9 of the service while it completes an upload's multipart upload in S3 (a real Swift with
// s3api, behind a recording proxy that holds the CompleteMultipartUpload call), then a restart and
// the client's resume: the video gets its source, whole and once, and nothing is left open.
const MIB = 1024 * 1024;
let s3: TestS3;
let proxy: S3Proxy;
let service: CrashableService | undefined;
const homes: ReturnType<typeof serviceHome>[] = [];

beforeAll(async () => {
  s3 = await startS3();
}, 60_000);
afterEach(async () => {
  await stopCrashable(service);
  service = undefined;
  await proxy?.close();
});
afterAll(async () => {
  await s3?.stop();
  for (const home of homes) home.remove();
});

function videoStatus(dataDir: string, videoId: string): VideoStatus {
  const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM videos WHERE id = ?').get(videoId) as { status: VideoStatus }).status;
  } finally {
    db.close();
  }
}

describe('a service killed while it completes an upload in S3', () => {
  it.each([
    ['before the bucket saw CompleteMultipartUpload', 'request'],
    ['after the bucket completed it, before the reply came back', 'reply'],
  ] as const)(
    '%s: after a restart the client is told "complete" only with the source in place',
    async (_when, how) => {
      const settings = await s3.newBucket();
      proxy = await startS3Proxy(settings.endpoint!);
      const home = serviceHome();
      homes.push(home);
      const env = s3.env({ ...settings, endpoint: proxy.endpoint });
      const first = await startCrashable(home, env);
      service = first;
      const bytes = randomBytes(12 * MIB);
      const videoId = await registerVideo(first);
      const boot = await openUploader(first, videoId);
      const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
      const path = new URL(created.headers.get('location')!).pathname;
      const source = `media/${videoId}/source.mp4`;

      const held = proxy.holdNext((call) => call.op === 'CompleteMultipartUpload', how);
      const patch = tusPatch(first.address + path, boot.ticket, 0, bytes).catch((error: unknown) => error);
      const call = await held;
      if (how === 'reply') await waitUntil('the bucket’s reply', 10_000, () => call.status);
      first.process.stop('SIGKILL');
      await first.process.exit;
      expect(await patch).toBeInstanceOf(Error); // the client heard nothing either way

      const second = await startCrashable(home, env);
      service = second;
      // What tus-js-client does next: ask for the offset. It may say complete only now the source is stored.
      const head = await tusHead(second.address + path, boot.ticket);
      expect([head.status, head.headers.get('upload-offset')]).toEqual([200, String(bytes.length)]);
      expect(videoStatus(home.dataDir, videoId)).not.toBe(VideoStatus.NotUploaded);

      const client = s3.client();
      const stored = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: source }));
      expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(bytes));
      const objects = (await client.send(new ListObjectsV2Command({ Bucket: settings.bucket }))).Contents ?? [];
      expect(objects.filter((object) => (object.Size ?? 0) >= bytes.length).map((object) => object.Key)).toEqual([source]);
      expect((await client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }))).Uploads ?? []).toEqual([]);
      expect(second.process.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    },
    90_000,
  );
});
