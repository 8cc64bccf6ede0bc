import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from '../test/support/service';
import { placeStrayUpload, storedUploadBytes, storedUploadIds } from '../test/support/storage';
import { openUploader, registerVideo, resultCode, tusHead, tusMetadata } from '../test/uploadHelpers';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop(true);
});

const MIB = 1024 * 1024;

/** A tus creation carrying its first bytes (creation-with-upload), as a second tab or a replayed request would send it. */
async function createWithBody(endpoint: string, ticket: string, size: number, body: Uint8Array) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': tusMetadata({ filename: 'clip.mp4', filetype: 'video/mp4', fingerprint: 'fp' }),
      'Content-Type': 'application/offset+octet-stream',
      [TICKET_HEADER]: ticket,
    },
    body: new Uint8Array(body),
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

function uploadRows(videoId: string): Promise<{ id: string }[]> {
  return service.db.selectFrom('uploads').select('id').where('video_id', '=', videoId).execute();
}

describe('creations racing for one video', () => {
  it('ten at once leave one upload, its files only, and no 500', async () => {
    const before = await storedUploadIds(service);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const body = new Uint8Array(MIB).fill(0x5a);
    const replies = await Promise.all(Array.from({ length: 10 }, () => createWithBody(boot.tusEndpoint, boot.ticket, 2 * MIB, body)));

    for (const reply of replies) {
      expect(reply.status === 201 || reply.status === 409, `${reply.status} ${reply.body}`).toBe(true);
      if (reply.status === 409) expect(resultCode(reply.body)).toBe('107');
    }
    expect(replies.filter((reply) => reply.status === 201).length).toBeGreaterThanOrEqual(1);
    const rows = await uploadRows(videoId);
    expect(rows).toHaveLength(1);
    const id = rows[0]!.id;
    // Every byte of the store (files on disk; objects and multipart uploads in S3) belongs to the one upload the video has.
    expect((await storedUploadIds(service)).filter((name) => !before.includes(name))).toEqual([id]);
    const winner = replies.find((reply) => reply.location?.endsWith(id));
    expect(winner?.status).toBe(201);
    expect((await tusHead(winner!.location!, boot.ticket)).headers.get('upload-offset')).toBe(String(MIB));
  });
});

describe('the start-up sweep of the upload store', () => {
  it('removes files no upload names and keeps those that one does', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await createWithBody(boot.tusEndpoint, boot.ticket, 100, new Uint8Array(10));
    expect(created.status).toBe(201);
    const kept = (await uploadRows(videoId))[0]!.id;
    const stray = 'ab'.repeat(16);
    await placeStrayUpload(service, stray);
    expect(await storedUploadIds(service)).toContain(stray);

    const dataDir = service.dataDir;
    await service.stop();
    service = await startTestService({ dataDir });
    const ids = await storedUploadIds(service);
    expect(ids).toContain(kept);
    expect(await storedUploadBytes(service, kept)).toBe(10);
    expect(ids).not.toContain(stray);
  });
});
