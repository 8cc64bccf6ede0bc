import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

async function post(fields: Record<string, string>) {
  const res = await fetch(`${service.address}/Api/Video/Post`, { method: 'POST', body: new URLSearchParams(fields) });
  return { status: res.status, body: await res.json() };
}

describe('POST /Api/Video/Post then GET /Api/Video/Get', () => {
  it('registers a type-1 video in status 8 and reads it back', async () => {
    const posted = await post({ ...service.auth(), VideoTitle: '第一个视频', SourceFileGetType: '1', CreateUser: 'alice' });
    expect(posted.status).toBe(200);
    expect(posted.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    const query = new URLSearchParams({ ...service.auth(), Id: posted.body.VideoId });
    const got = await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json();
    expect(got.Video).toMatchObject({ Id: posted.body.VideoId, VideoTitle: '第一个视频', Status: 8, CreateUser: 'alice', Duration: 0 });
    expect(got.MediaSever).toEqual({ PlayURL: '', MobilePlayURL: '', DownloadURL: '' });
    expect(got.VideoPlayFile).toEqual([]);
  });
});
