import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { makeTestVideo } from './support/media';
import { startTestService, type TestService } from './support/service';
import { getPage, jsonBlock, pageQuery, registerVideo, uploadWithClient } from './uploadHelpers';

// storageBytes counts what a transcode stores too, not only the uploaded sources: a real upload,
// transcoded by ffmpeg, fills a quota its source alone would leave room in.
const MARGIN = 1000;
let service: TestService;
let source: Buffer;
const work = mkdtempSync(join(tmpdir(), 'ovu-quota-'));
beforeAll(async () => {
  source = readFileSync(await makeTestVideo(work, 'clip.mp4', { width: 320, height: 240, seconds: 1 }));
  const apps: AppRecord[] = [{ appId: 'stored', appSecret: 'secret-of-stored-01234567', quota: { storageBytes: source.length + MARGIN } }];
  service = await startTestService({ apps });
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

async function boot(videoId: string): Promise<UploadPageBoot> {
  return jsonBlock<UploadPageBoot>((await getPage(service, pageQuery(service, videoId, {}, 'stored'))).html, 'upload-boot')!;
}

describe('the storageBytes quota', () => {
  it('counts the renditions and pictures a transcode stored', async () => {
    const first = await registerVideo(service, 'stored');
    await uploadWithClient(await boot(first), source);
    for (let tries = 0; tries < 600 && (await service.context.stores.videos.get(first))?.status !== 1; tries++)
      await new Promise((wake) => setTimeout(wake, 50));
    expect((await service.context.stores.videos.get(first))?.status).toBe(1);

    // The source leaves MARGIN bytes; the play files and poster take more than that.
    const refused = await service.post({ ...service.auth('stored'), VideoTitle: 'no room', SourceFileGetType: '1' });
    expect([refused.status, refused.body.AuthMsg.ResultCode]).toEqual([507, '113']);
  }, 60_000);
});
