import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/server/log';
import { PROJECT_VERSION } from '../src/server/project';
import { TEST_APPS, startTestService, type TestService } from './support/service';

const OPS_TOKEN = 'ops-token-0123456789abcdef';

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

  it('names a missing ffmpeg without its path, and the reason only to the holder of OPS_TOKEN', async () => {
    const service = await start({ config: { ffmpegPath: '/nonexistent/bin/ffmpeg' }, env: { OPS_TOKEN } });
    const res = await fetch(`${service.address}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready', checks: { database: 'ok', storage: 'ok', ffmpeg: 'failing' } });
    const detailed = await fetch(`${service.address}/readyz`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } });
    const text = await detailed.text();
    expect(detailed.status).toBe(503);
    expect(JSON.parse(text)).toEqual({ status: 'not ready', checks: { database: 'ok', storage: 'ok', ffmpeg: 'FFMPEG_PATH not found' } });
    expect(text).not.toContain('/nonexistent');
  });

  it('says only ok or failing per part without the token, and the details go to the log', async () => {
    const lines: string[] = [];
    const service = await start({ log: createLogger((line) => lines.push(line)), env: { OPS_TOKEN } });
    rmSync(service.dataDir, { recursive: true, force: true });
    const details = { database: 'the database file is missing from DATA_DIR', storage: 'DATA_DIR is not writable (ENOENT)', ffmpeg: 'ok' };
    const wrong: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${OPS_TOKEN}x` },
      { Authorization: OPS_TOKEN },
      { Authorization: `Basic ${OPS_TOKEN}` },
    ];
    for (const headers of wrong) {
      const res = await fetch(`${service.address}/readyz`, { headers });
      const text = await res.text();
      expect(res.status).toBe(503);
      expect(JSON.parse(text)).toEqual({ status: 'not ready', checks: { database: 'failing', storage: 'failing', ffmpeg: 'ok' } });
      expect(text).not.toContain('DATA_DIR');
    }
    const detailed = await fetch(`${service.address}/readyz`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } });
    const body = await detailed.json();
    expect([detailed.status, body.checks]).toEqual([503, details]);
    expect(JSON.stringify(body)).not.toContain(service.dataDir);
    expect((await fetch(`${service.address}/healthz`)).status).toBe(200);
    const notReady = lines.map((line) => JSON.parse(line)).filter((line) => line.message === 'not ready');
    expect(notReady).toEqual([expect.objectContaining({ level: 'warn', checks: details })]);
  });

  it('gives the details to no one over HTTP when OPS_TOKEN is unset', async () => {
    const service = await start();
    rmSync(service.dataDir, { recursive: true, force: true });
    for (const token of ['', 'undefined', OPS_TOKEN]) {
      const res = await fetch(`${service.address}/readyz`, { headers: { Authorization: `Bearer ${token}` } });
      expect([res.status, (await res.json()).checks]).toEqual([503, { database: 'failing', storage: 'failing', ffmpeg: 'ok' }]);
    }
  });
});
