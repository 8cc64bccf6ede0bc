import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';
import { makeNoisyVideo, openUploader, registerVideo, tusCreate, tusPatch } from './uploadHelpers';

let service: TestService | undefined;
const work = mkdtempSync(join(tmpdir(), 'ovu-modes-'));
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

/** Every path under `dir` with the permission bits others would need: none may be set. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) found.push(...openToOthers(path));
  }
  return found;
}

describe('files under DATA_DIR', () => {
  it('are readable by the service alone after an upload and its transcode, with a umask that would share them', async () => {
    const umask = process.umask();
    expect(umask & 0o077).not.toBe(0o077); // the test means something only when the default would leak
    // DATA_DIR itself is left to the operator; here it does not exist yet, so the service makes it.
    const dataDir = join(work, 'data');
    service = await startTestService({ dataDir });
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const bytes = readFileSync(await makeNoisyVideo(work, 1));
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
    expect((await tusPatch(created.headers.get('location')!, boot.ticket, 0, bytes)).status).toBe(204);
    const deadline = Date.now() + 60_000;
    while ((await service.context.stores.videos.get(videoId))!.status !== 1) {
      if (Date.now() > deadline) throw new Error('not transcoded in time');
      await new Promise((wake) => setTimeout(wake, 50));
    }
    expect(readdirSync(join(dataDir, 'media', videoId)).length).toBeGreaterThan(3);
    expect(lstatSync(dataDir).mode & 0o077).toBe(0);
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
