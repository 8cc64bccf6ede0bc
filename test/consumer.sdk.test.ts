import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLoopback, type LoopbackServer } from '../e2e/support/httpServer';
import { installFixture, type InstalledFixture } from './support/consumers';
import { startTestService, type TestService } from './support/service';

const APP = { appId: 'fixture-app', appSecret: 'secret-of-the-fixture-app-0123456789' };

/** A free loopback port for the fixture's callback server: the service must know the URL before it starts. */
function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** The whole example of docs/sdk.md (a callback server included), as a reader would paste it. */
function sdkPageExample(): string {
  const page = readFileSync(resolve(import.meta.dirname, '../docs/sdk.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/sdk.md: no ```ts block');
  return block;
}

let fixture: InstalledFixture;
let service: TestService;
let missingSource: LoopbackServer;

beforeAll(async () => {
  fixture = await installFixture('node-sdk');
}, 180_000);

afterAll(async () => {
  fixture?.remove();
  await service?.stop(true);
  await missingSource?.close();
});

describe('a Node app backend that installed the packed tarball', () => {
  it('has only the package itself from us, and its types and the SDK example of docs/sdk.md compile under nodenext', async () => {
    expect(fixture.installed().sort()).toEqual(['@types/node', 'open-video-upload', 'typescript', 'undici-types']);
    writeFileSync(join(fixture.dir, 'src/docsExample.ts'), sdkPageExample());
    await fixture.run('npx', ['tsc', '-p', 'tsconfig.json']);
  }, 60_000);

  it('uses open-video-upload/sdk against the real service and checks a real callback', async () => {
    const callbackPort = await freePort();
    missingSource = await listenLoopback((_req, res) => void res.writeHead(404).end());
    service = await startTestService({
      apps: [{ ...APP, callbackUrl: `http://127.0.0.1:${callbackPort}/callback` }],
      env: { SOURCE_URL_ALLOW_PRIVATE: '1' },
    });
    const output = await fixture.run('node', ['out/main.js'], {
      BASE_URL: service.address,
      ...{ APP_ID: APP.appId, APP_SECRET: APP.appSecret },
      CALLBACK_PORT: String(callbackPort),
      MISSING_SOURCE: `http://127.0.0.1:${missingSource.port}/gone.mp4`,
    });
    expect(output).not.toContain(APP.appSecret);
    const seen = JSON.parse(output.trim().split('\n').at(-1)!);

    expect((await service.context.stores.videos.get(seen.videoId))?.appId).toBe(APP.appId);
    expect(seen.widgetTypes).toEqual(['string', 'string', 'string', 'string']);
    expect(seen.widgetAppId).toBe(APP.appId);
    expect(seen.status).toBe(8);
    expect(seen.listed).toEqual([seen.videoId]);
    expect(seen.total).toBe(1);
    expect(seen.byAIdTotal).toBe(1);
    expect(seen.refusedCode).toBe('104/401');
    expect(seen.callbacks).toEqual([{ verified: { videoId: seen.downloadId, videoStatus: 4 }, forgedRefusal: 'bad-signature' }]);
  }, 60_000);
});
