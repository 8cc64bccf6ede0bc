import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/server/log';
import { PROJECT_VERSION } from '../src/server/project';
import { TEST_APPS, startTestService, type TestService } from './support/service';

/** The endpoints an operator, a load balancer or someone typing the address into a browser meets. */
const services: TestService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop(true);
});

async function start(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const service = await startTestService(options);
  services.push(service);
  return service;
}

describe('GET /', () => {
  it('says what answers here, its version and where the docs are, with no path or secret', async () => {
    const service = await start({ env: { PUBLIC_URL: 'http://localhost:8080/videos?a=1&b=<2>' } });
    const res = await fetch(`${service.address}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain(`Version ${PROJECT_VERSION}.`);
    expect(html).toContain('href="/README.md"');
    expect(html).toContain('href="/readyz"');
    expect(html).toContain('http://localhost:8080/videos?a=1&#38;b=%3C2%3E/Scripts/UploadWidget/initUploadWidget.js');
    expect(html).not.toContain('demo app');
    expect(html).not.toContain(service.dataDir);
    for (const app of TEST_APPS) expect(html).not.toContain(app.appSecret);

    const readme = await fetch(`${service.address}/README.md`);
    expect(readme.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await readme.text()).toMatch(/^# open-video-upload/);
  });

  it('links the demo app in demo mode', async () => {
    const service = await start({ demoUrl: 'http://localhost:3000' });
    expect(await (await fetch(`${service.address}/`)).text()).toContain('<a href="http://localhost:3000">open the demo app</a>');
  });
});

describe('GET /healthz and /readyz', () => {
  it('are ok while everything works', async () => {
    const service = await start();
    const health = await fetch(`${service.address}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${service.address}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { database: 'ok', storage: 'ok', ffmpeg: 'ok' } }]);
  });

  it('names a missing ffmpeg without its path', async () => {
    const service = await start({ config: { ffmpegPath: '/nonexistent/bin/ffmpeg' } });
    const res = await fetch(`${service.address}/readyz`);
    const text = await res.text();
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toEqual({ status: 'not ready', checks: { database: 'ok', storage: 'ok', ffmpeg: 'FFMPEG_PATH not found' } });
    expect(text).not.toContain('/nonexistent');
  });

  it('reports a removed DATA_DIR as not ready, says so once in the log, and keeps running', async () => {
    const lines: string[] = [];
    const service = await start({ log: createLogger((line) => lines.push(line)) });
    rmSync(service.dataDir, { recursive: true, force: true });
    const res = await fetch(`${service.address}/readyz`);
    const body = await res.json();
    expect(res.status).toBe(503);
    expect(body.checks).toEqual({ database: 'the database file is missing from DATA_DIR', storage: 'DATA_DIR is not writable (ENOENT)', ffmpeg: 'ok' });
    expect(JSON.stringify(body)).not.toContain(service.dataDir);
    expect((await fetch(`${service.address}/healthz`)).status).toBe(200);
    expect((await fetch(`${service.address}/readyz`)).status).toBe(503);
    const notReady = lines.map((line) => JSON.parse(line)).filter((line) => line.message === 'not ready');
    expect(notReady).toEqual([expect.objectContaining({ level: 'warn', checks: body.checks })]);
  });
});
