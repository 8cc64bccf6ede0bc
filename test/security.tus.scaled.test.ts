import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { removeStoredUpload, storedMedia, storedMediaNames } from './support/storage';
import { openUploader, registerVideo, resultCode, tusCreate, tusHead, tusPatch } from './uploadHelpers';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop(true);
});

const SIZE = 100;

/** Two videos of one app, each with an unfinished upload and the ticket of its own page. */
async function twoUploads() {
  const uploads = [];
  for (const videoId of [await registerVideo(service), await registerVideo(service)]) {
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, SIZE);
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    uploads.push({ videoId, ticket: boot.ticket, url, id: url.split('/').pop()! });
  }
  return uploads as [(typeof uploads)[0], (typeof uploads)[0]];
}

describe('a ticket reaches only the upload of its own video', () => {
  it('a query string naming another upload does not redirect a PATCH to it', async () => {
    const [own, other] = await twoUploads();
    await tusPatch(`${own.url}?x=/${other.id}`, own.ticket, 0, new Uint8Array(10).fill(0x41));
    expect((await tusHead(other.url, other.ticket)).headers.get('upload-offset')).toBe('0');
  });

  it('a query string naming another upload does not report its offset', async () => {
    const [own, other] = await twoUploads();
    expect((await tusPatch(other.url, other.ticket, 0, new Uint8Array(30))).status).toBe(204);
    const head = await tusHead(`${own.url}?x=/${other.id}`, own.ticket);
    expect(head.headers.get('upload-offset')).toBe('0');
  });

  it('a query string naming another upload does not delete it', async () => {
    const [own, other] = await twoUploads();
    await fetch(`${own.url}?x=/${other.id}`, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: own.ticket } });
    const head = await tusHead(other.url, other.ticket);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-length')).toBe(String(SIZE));
  });

  it("the other upload's own URL is refused with 108", async () => {
    const [own, other] = await twoUploads();
    const reply = await tusPatch(other.url, own.ticket, 0, new Uint8Array(10));
    expect(reply.status).toBe(403);
    expect(resultCode(reply.body)).toBe('108');
    expect(reply.headers.get('upload-offset')).toBeNull();
  });
});

describe("a finished upload is the video's source of record", () => {
  it('cannot be written to, deleted or replaced once all its bytes are in', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, SIZE, {
      filename: '../../../../escape.mp4',
      filetype: 'video/mp4',
      fingerprint: 'f',
    });
    const url = created.headers.get('location')!;
    const bytes = new Uint8Array(SIZE).fill(0x42);
    expect((await tusPatch(url, boot.ticket, 0, bytes)).status).toBe(204);

    // The browser's file name names nothing on disk: the source is `source.mp4` in the video's own folder.
    const names = await storedMediaNames(service, videoId);
    expect(names).toContain('source.mp4');
    expect(names.every((name) => !name.includes('escape'))).toBe(true);

    const more = await tusPatch(url, boot.ticket, SIZE, new Uint8Array(5).fill(0x43));
    expect(more.status).toBeGreaterThanOrEqual(400);
    const rewrite = await tusPatch(url, boot.ticket, 0, new Uint8Array(SIZE).fill(0x43));
    expect(rewrite.status).toBeGreaterThanOrEqual(400);
    const removed = await fetch(url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: boot.ticket } });
    expect(removed.status).toBeGreaterThanOrEqual(400);
    const again = await tusCreate(boot.tusEndpoint, boot.ticket, SIZE);
    expect(resultCode(again.body)).toBe('107');

    expect(await storedMedia(service, videoId, 'source.mp4')).toEqual(Buffer.from(bytes));
  });
});

describe('every refusal of the tus endpoint is a JSON AuthMsg with the status tus clients act on', () => {
  /** An unfinished upload of SIZE bytes, 10 of them in. */
  async function unfinished() {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, SIZE);
    const url = created.headers.get('location')!;
    expect((await tusPatch(url, boot.ticket, 0, new Uint8Array(10))).status).toBe(204);
    return { boot, url, id: url.split('/').pop()! };
  }

  const PATCH = { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '10', 'Content-Type': 'application/offset+octet-stream' };

  async function send(url: string, method: string, ticket: string, headers: Record<string, string | undefined>, body?: Uint8Array) {
    const sent: Record<string, string> = { [TICKET_HEADER]: ticket };
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
    const res = await fetch(url, { method, headers: sent, body: body && new Uint8Array(body) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  function expectRefusal(reply: Awaited<ReturnType<typeof send>>, status: number, code: string, message: RegExp): void {
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(reply.text) as { AuthMsg: { ResultCode: string; ResultMessage: string } };
    expect(Object.keys(body)).toEqual(['AuthMsg']);
    expect(body.AuthMsg.ResultCode).toBe(code);
    expect(body.AuthMsg.ResultMessage).toMatch(message);
    expect(reply.headers.get('tus-resumable')).toBe('1.0.0');
  }

  it.each([
    ['no Tus-Resumable header', { 'Tus-Resumable': undefined }, 412, '101', /^Missing Parameter: Tus-Resumable Required$/],
    ['a Tus-Resumable version tus does not speak', { 'Tus-Resumable': '0.2.2' }, 400, '106', /^Invalid Parameter: Invalid tus-resumable$/],
    ['an Upload-Offset that is not a number', { 'Upload-Offset': 'ten' }, 400, '106', /^Invalid Parameter: Invalid upload-offset$/],
    ['no Upload-Offset', { 'Upload-Offset': undefined }, 403, '101', /^Missing Parameter: Upload-Offset header required$/],
    [
      'a Content-Type other than application/offset+octet-stream',
      { 'Content-Type': 'text/plain' },
      400,
      '106',
      /^Invalid Parameter: Invalid content-type$/,
    ],
    ['no Content-Type', { 'Content-Type': undefined }, 403, '101', /^Missing Parameter: Content-Type header required$/],
    [
      "an Upload-Offset other than the upload's (conflict)",
      { 'Upload-Offset': '5' },
      409,
      '106',
      /^Invalid Parameter: Upload-Offset conflict$/,
    ],
  ])('PATCH with %s', async (_name, headers, status, code, message) => {
    const { boot, url } = await unfinished();
    expectRefusal(await send(url, 'PATCH', boot.ticket, { ...PATCH, ...headers }, new Uint8Array(5)), status, code, message);
  });

  it('PATCH beyond the declared length: 413 and 112', async () => {
    const { boot, url } = await unfinished();
    expectRefusal(await send(url, 'PATCH', boot.ticket, PATCH, new Uint8Array(SIZE)), 413, '112', /^File Too Large: /);
  });

  it('PATCH of an upload whose stored file is gone: 404 and 110 (HEAD: 404 without a body)', async () => {
    const { boot, url, id } = await unfinished();
    await removeStoredUpload(service, id);
    expectRefusal(await send(url, 'PATCH', boot.ticket, PATCH, new Uint8Array(5)), 404, '110', /^Not Found: /);
    const head = await send(url, 'HEAD', boot.ticket, { 'Tus-Resumable': '1.0.0' });
    expect(head.status).toBe(404);
    expect(head.text).toBe('');
  });

  it('POST with a malformed Upload-Metadata: 400 and 106', async () => {
    const { boot } = await unfinished();
    const reply = await send(boot.tusEndpoint, 'POST', boot.ticket, {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(SIZE),
      'Upload-Metadata': 'filename not*base64',
    });
    expectRefusal(reply, 400, '106', /^Invalid Parameter: Invalid upload-metadata$/);
  });

  it('DELETE of a finished upload: 400 and 107, the upload kept', async () => {
    const { boot, url } = await unfinished();
    expect((await tusPatch(url, boot.ticket, 10, new Uint8Array(SIZE - 10))).status).toBe(204);
    expectRefusal(
      await send(url, 'DELETE', boot.ticket, { 'Tus-Resumable': '1.0.0' }),
      400,
      '107',
      /^Video Status Error: Cannot terminate an already completed upload$/,
    );
    expect((await tusHead(url, boot.ticket)).headers.get('upload-offset')).toBe(String(SIZE));
  });
});
