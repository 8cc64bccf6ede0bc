import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoStatus } from '../src/shared/videoStatus';
import { STATUS_PATH, TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { openUploader, registerVideo, resultCode } from './uploadHelpers';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

const status = (ticket?: string) => fetch(`${service.address}${STATUS_PATH}`, { headers: ticket ? { [TICKET_HEADER]: ticket } : {} });

describe('GET /UploadWidget/Status: processing status for the uploader', () => {
  it("answers the status of the ticket's own video, and follows it", async () => {
    const videoId = await registerVideo(service);
    const { ticket } = await openUploader(service, videoId);
    const first = await status(ticket);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ VideoStatus: VideoStatus.NotUploaded });
    await service.context.stores.videos.transition(videoId, [VideoStatus.NotUploaded], VideoStatus.WaitingForTranscoding, '', Date.now());
    expect(await (await status(ticket)).json()).toEqual({ VideoStatus: VideoStatus.WaitingForTranscoding });
  });

  it('refuses a request without a ticket (101) or with a forged one (108)', async () => {
    const missing = await status();
    expect([missing.status, resultCode(await missing.text())]).toEqual([400, '101']);
    const videoId = await registerVideo(service);
    const { ticket } = await openUploader(service, videoId);
    const [payload, signature] = ticket.split('.');
    const forged = await status(`${payload}.${signature!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`);
    expect([forged.status, resultCode(await forged.text())]).toEqual([403, '108']);
  });
});
