import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { storedMedia, storedMediaNames } from './support/storage';
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

  it('the other upload\'s own URL is refused with 108', async () => {
    const [own, other] = await twoUploads();
    const reply = await tusPatch(other.url, own.ticket, 0, new Uint8Array(10));
    expect(reply.status).toBe(403);
    expect(resultCode(reply.body)).toBe('108');
    expect(reply.headers.get('upload-offset')).toBeNull();
  });
});

describe('a finished upload is the video\'s source of record', () => {
  it('cannot be written to, deleted or replaced once all its bytes are in', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, SIZE, { filename: '../../../../escape.mp4', filetype: 'video/mp4', fingerprint: 'f' });
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
