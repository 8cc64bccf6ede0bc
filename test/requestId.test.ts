import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { createLogger } from '../src/server/log';
import { escapeHtml } from '../src/server/widget/html';
import type { ErrorPageData } from '../src/server/widget/pages';
import { startTestService, type TestService } from './support/service';
import { ENV_11, SOAP_11_HEADERS, SOAP_PATH, envelope, postElement } from './support/soap';
import { getPage, jsonBlock, openUploader, pageQuery, registerVideo, tusCreate, tusPatch } from './uploadHelpers';

// Every reply names its request, so what a user or an app reports can be found in the log.
let service: TestService;
const lines: string[] = [];
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  service = await startTestService({ log: createLogger((line) => lines.push(line)) });
});
afterAll(async () => {
  await service?.stop(true);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A GET with headers as written, which fetch would refuse or rewrite; resolves with the reply's status and id. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.address}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Lines logged so far with this request id, once its request line is there. */
async function linesOf(requestId: string): Promise<Record<string, unknown>[]> {
  for (let tries = 0; tries < 100; tries++) {
    const found = logged().filter((line) => line.requestId === requestId);
    if (found.some((line) => line.message === 'request')) return found;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return logged().filter((line) => line.requestId === requestId);
}

describe('X-Request-Id', () => {
  it('is generated for a request without one, different each time, and names its log line', async () => {
    const first = await fetch(`${service.address}/healthz`);
    const second = await fetch(`${service.address}/healthz`);
    const id = first.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(id);
    expect(await linesOf(id)).toEqual([expect.objectContaining({ message: 'request', route: '/healthz', status: 200, requestId: id })]);
  });

  it('honours a sane incoming id on the API, tus, the upload page, static files, media, SOAP and 404s', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const sent = (id: string) => ({ 'X-Request-Id': id });
    const replies: [string, Response][] = [
      [
        'api',
        await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: videoId })}`, {
          headers: sent('api-1'),
        }),
      ],
      ['page', await fetch(`${service.address}/UploadWidget/Upload?${pageQuery(service, videoId)}`, { headers: sent('page-1') })],
      ['tus', await fetch(boot.tusEndpoint, { method: 'OPTIONS', headers: sent('tus-1') })],
      ['static', await fetch(`${service.address}/README.md`, { headers: sent('static-1') })],
      ['media', await fetch(`${service.address}/Media/${videoId}/none.mp4`, { headers: sent('media-1') })],
      [
        'soap',
        await fetch(`${service.address}${SOAP_PATH}`, {
          method: 'POST',
          headers: { ...SOAP_11_HEADERS, ...sent('soap-1') },
          body: envelope(ENV_11, postElement(service.auth(), { VideoTitle: 'soap', SourceFileGetType: '1' })),
        }),
      ],
      ['404', await fetch(`${service.address}/nowhere`, { headers: sent('404-1') })],
      ['405', await fetch(`${service.address}/Api/Video/Get`, { method: 'DELETE', headers: sent('405-1') })],
    ];
    expect(replies.map(([name, res]) => [name, res.status, res.headers.get('x-request-id')])).toEqual([
      ['api', 200, 'api-1'],
      ['page', 200, 'page-1'],
      ['tus', 204, 'tus-1'],
      ['static', 200, 'static-1'],
      ['media', 404, 'media-1'],
      ['soap', 200, 'soap-1'],
      ['404', 404, '404-1'],
      ['405', 405, '405-1'],
    ]);
    const created = await fetch(boot.tusEndpoint, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', [TICKET_HEADER]: boot.ticket, 'X-Request-Id': 'tus-create' },
    });
    expect([created.status, created.headers.get('x-request-id')]).toEqual([201, 'tus-create']);
    expect((await linesOf('page-1')).map((line) => [line.message, line.route])).toEqual([['request', '/UploadWidget/Upload']]);
  });

  it('replaces an id that is too long, not printable ASCII or blank, and never echoes it', async () => {
    const insane = ['x'.repeat(129), 'caf\u00e9', 'a\tb', ' '];
    for (const id of insane) {
      const reply = await rawGet('/healthz', { 'X-Request-Id': id });
      expect(reply.status).toBe(200);
      expect(reply.requestId).toMatch(UUID);
    }
    const longest = 'y'.repeat(128);
    expect((await rawGet('/healthz', { 'X-Request-Id': longest })).requestId).toBe(longest);
    for (const id of insane) expect(lines.join('\n')).not.toContain(JSON.stringify(id));
  });

  it('is on the error page as "Reference: <id>", escaped, and in the failure message it posts to the loader', async () => {
    const id = 'ref-<b>&"1"';
    const page = await getPage(service, pageQuery(service, await registerVideo(service), { token: '0'.repeat(32) }), {
      'X-Request-Id': id,
    });
    expect(page.status).toBe(401);
    expect(page.headers.get('x-request-id')).toBe(id);
    expect(page.html).toContain(`<p class="reference">Reference: ${escapeHtml(id)}</p>`);
    expect(page.html).not.toContain('<b>');
    const failure = jsonBlock<ErrorPageData>(page.html, 'upload-error')!.messages.find((message) => message.type === 'failure');
    expect(failure).toMatchObject({ info: { code: '104', requestId: id } });
    const generated = await getPage(service, pageQuery(service, 'no-such-video'));
    expect(generated.html).toContain(`Reference: ${generated.headers.get('x-request-id')}`);
  });

  it('is on every log line the request writes; job lines carry the video id and no request id', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    await tusCreate(boot.tusEndpoint, boot.ticket, 10);
    // A second creation replaces the first, unfinished upload, and says so in the log.
    const replacing = await fetch(boot.tusEndpoint, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', [TICKET_HEADER]: boot.ticket, 'X-Request-Id': 'replacing-1' },
    });
    expect(replacing.status).toBe(201);
    const own = await linesOf('replacing-1');
    expect(own.map((line) => line.message).sort()).toEqual(['request', 'upload replaced']);
    expect(own.find((line) => line.message === 'upload replaced')).toMatchObject({ videoId });

    // The upload's last PATCH queues the transcode; the job is not that request's.
    expect((await tusPatch(replacing.headers.get('location')!, boot.ticket, 0, new Uint8Array(10))).status).toBe(204);
    let started: Record<string, unknown> | undefined;
    for (let tries = 0; tries < 200 && !started; tries++) {
      started = logged().find((line) => line.message === 'processing job started' && line.videoId === videoId);
      if (!started) await new Promise((wake) => setTimeout(wake, 20));
    }
    expect(started).toMatchObject({ videoId, kind: 'transcode' });
    expect(started).not.toHaveProperty('requestId');
  });
});
