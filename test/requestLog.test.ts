import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../src/server/config';
import { createLogger } from '../src/server/log';
import { startTestService, type TestService } from './support/service';
import { openUploader, registerVideo, tusCreate, tusPatch } from './uploadHelpers';

const services: TestService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop(true);
});

async function startLogged(level: Parameters<typeof createLogger>[1] = 'info'): Promise<{ service: TestService; lines: string[] }> {
  const lines: string[] = [];
  const service = await startTestService({ log: createLogger((line) => lines.push(line), level) });
  services.push(service);
  return { service, lines };
}

/** The request lines, once the reply that ends them has been logged. */
async function requestLines(lines: string[], count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = lines.map((line) => JSON.parse(line)).filter((line) => line.message === 'request');
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

describe('request log', () => {
  it('writes one line per request with the route template, never the query, a Token or a ticket', async () => {
    const { service, lines } = await startLogged();
    const auth = service.auth();
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const uploadUrl = (await tusCreate(boot.tusEndpoint, boot.ticket, 10)).headers.get('location')!;
    expect((await tusPatch(uploadUrl, boot.ticket, 0, new Uint8Array(10))).status).toBe(204);
    expect((await service.get('/Api/Video/Get', { ...auth, Id: videoId })).status).toBe(200);
    expect((await fetch(`${service.address}/nowhere?Token=${auth.Token}`)).status).toBe(404);

    const logged = await requestLines(lines, 6);
    expect(logged.map(({ method, route, status }) => [method, route, status])).toEqual([
      ['POST', '/Api/Video/Post', 200],
      ['GET', '/UploadWidget/Upload', 200],
      ['POST', '/UploadWidget/files/*', 201],
      ['PATCH', '/UploadWidget/files/*', 204],
      ['GET', '/Api/Video/Get', 200],
      ['GET', '(none)', 404],
    ]);
    expect(logged[4]).toMatchObject({ level: 'info', durationMs: expect.any(Number) });
    expect(logged[4]!.bytes).toBeGreaterThan(200);
    const all = lines.join('\n');
    for (const secret of [auth.Token, boot.ticket, service.context.apps.get('app-a')!.appSecret, '?']) {
      expect(all).not.toContain(secret);
    }
  });

  it('leaves request lines out above info, and refuses an unknown LOG_LEVEL', async () => {
    const { service, lines } = await startLogged('warn');
    await fetch(`${service.address}/healthz`);
    await new Promise((wake) => setTimeout(wake, 100));
    expect(lines).toEqual([]);
    expect(readConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => readConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigError('LOG_LEVEL must be one of debug, info, warn, error, got "verbose"'),
    );
  });
});
