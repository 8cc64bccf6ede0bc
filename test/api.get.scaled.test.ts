import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';
import { TEST_APPS, startTestService, type TestService } from './support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

const VIDEO_FIELDS = ['Id', 'VideoTitle', 'Description', 'Tags', 'Actors', 'Status', 'CreateDate', 'CreateUser', 'PicSavePath'];

async function register(fields: Record<string, string> = {}, appId = 'app-a'): Promise<string> {
  const reply = await service.post({ ...service.auth(appId), VideoTitle: 'title', SourceFileGetType: '1', ...fields });
  expect(reply.body.AuthMsg.ResultCode).toBe('1');
  return reply.body.VideoId;
}

describe('GET /Api/Video/Get', () => {
  it('replies {AuthMsg, Video, MediaSever, VideoPlayFile} with the nine fields plus Duration', async () => {
    const id = await register({ Description: '描述', Tags: '猫,狗', Actors: '演员', CreateUser: 'alice' });
    const reply = await service.get('/Api/Video/Get', { ...service.auth(), Id: id });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['AuthMsg', 'Video', 'MediaSever', 'VideoPlayFile']);
    expect(reply.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    expect(Object.keys(reply.body.Video).sort()).toEqual([...VIDEO_FIELDS, 'Duration'].sort());
    expect(reply.body.Video).toMatchObject({
      Id: id,
      VideoTitle: 'title',
      Description: '描述',
      Tags: '猫,狗',
      Actors: '演员',
      Status: 8,
      CreateUser: 'alice',
      PicSavePath: '',
      Duration: 0,
    });
    expect(reply.body.MediaSever).toEqual({ PlayURL: '', MobilePlayURL: '', DownloadURL: '' });
    expect(reply.body.VideoPlayFile).toEqual([]);
  });

  it('writes CreateDate in Beijing time without an offset', async () => {
    const before = Date.now();
    const id = await register();
    const { CreateDate } = (await service.get('/Api/Video/Get', { ...service.auth(), Id: id })).body.Video;
    expect(CreateDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    // Read as UTC+8, it names the moment of registration.
    const instant = Date.parse(CreateDate + '+08:00');
    expect(instant).toBeGreaterThanOrEqual(before);
    expect(instant).toBeLessThanOrEqual(Date.now());
  });

  it('accepts the credentials with the query names in any order and ignores unknown parameters', async () => {
    const id = await register();
    const { AppId, Timestamp, Token } = service.auth();
    const reply = await service.get('/Api/Video/Get', { Id: id, Token, extra: 'x', Timestamp, AppId });
    expect(reply.body.AuthMsg.ResultCode).toBe('1');
  });

  it('answers HEAD like GET without a body', async () => {
    const id = await register();
    const res = await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: id })}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('shows play files, media addresses and the picture of a processed video', async () => {
    const id = await register();
    // What the processing part leaves behind for a finished video.
    await service.db
      .updateTable('videos')
      .set({ status: 1, duration: 12.5, source_file: 'source.mp4', poster_file: 'poster.jpg' })
      .where('id', '=', id)
      .execute();
    await service.db
      .insertInto('play_files')
      .values([
        { video_id: id, file: '360p.mp4', bitrate: 800, label: '360p', height: 360, segmented: 1 },
        { video_id: id, file: '720p.mp4', bitrate: 2500, label: '720p', height: 720, segmented: 1 },
      ])
      .execute();
    const body = (await service.get('/Api/Video/Get', { ...service.auth(), Id: id })).body;
    const media = `${service.context.config.publicUrl}/Media/${id}`;
    expect(body.Video).toMatchObject({ Status: 1, Duration: 12.5, PicSavePath: `${media}/poster.jpg` });
    expect(body.VideoPlayFile).toEqual([
      { VideoURL: `${media}/720p.mp4`, Bitrate: 2500, BitrateLabel: '720p' },
      { VideoURL: `${media}/360p.mp4`, Bitrate: 800, BitrateLabel: '360p' },
    ]);
    expect(body.MediaSever).toEqual({
      PlayURL: `${media}/720p.mp4`,
      MobilePlayURL: `${media}/master.m3u8`,
      DownloadURL: `${media}/source.mp4`,
    });
  });

  it('does not show one app the video of another', async () => {
    const id = await register({}, 'app-b');
    expect((await service.get('/Api/Video/Get', { ...service.auth('app-b'), Id: id })).body.AuthMsg.ResultCode).toBe('1');
    const other = await service.get('/Api/Video/Get', { ...service.auth('app-a'), Id: id });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ AuthMsg: { ResultCode: '105', ResultMessage: `Video Not Exist: ${id}` } });
  });
});

describe('the time window over HTTP, on a service whose clock stands still', () => {
  const NOW = 1_700_000_000_000;
  let still: TestService;
  let id: string;
  beforeAll(async () => {
    still = await startTestService({ now: () => NOW });
    id = (await still.post({ ...still.auth('app-a', NOW), VideoTitle: 't', SourceFileGetType: '1' })).body.VideoId;
  });
  afterAll(() => still.stop(true));

  const at = (offsetSeconds: number) => {
    const Timestamp = String(NOW / 1000 + offsetSeconds);
    return { AppId: 'app-a', Timestamp, Token: signToken(Timestamp, TEST_APPS[0]!.appSecret), Id: id };
  };

  it.each([-600, 600])('accepts a Timestamp %i s from the server clock', async (offset) => {
    expect((await still.get('/Api/Video/Get', at(offset))).body.AuthMsg.ResultCode).toBe('1');
  });

  it.each([-601, 601])('refuses a Timestamp %i s from the server clock with 103', async (offset) => {
    const reply = await still.get('/Api/Video/Get', at(offset));
    expect(reply.status).toBe(401);
    expect(reply.body.AuthMsg.ResultCode).toBe('103');
  });

  it('dates the video by the server clock in Asia/Shanghai', async () => {
    expect((await still.get('/Api/Video/Get', at(0))).body.Video.CreateDate).toBe('2023-11-15T06:13:20.000');
  });
});

describe('TIME_ZONE', () => {
  it('writes CreateDate in the configured zone', async () => {
    const NOW = Date.UTC(2024, 6, 1, 12, 0, 0, 250);
    const berlin = await startTestService({ now: () => NOW, env: { TIME_ZONE: 'Europe/Berlin' } });
    try {
      const id = (await berlin.post({ ...berlin.auth('app-a', NOW), VideoTitle: 't', SourceFileGetType: '1' })).body.VideoId;
      const video = (await berlin.get('/Api/Video/Get', { ...berlin.auth('app-a', NOW), Id: id })).body.Video;
      expect(video.CreateDate).toBe('2024-07-01T14:00:00.250');
    } finally {
      await berlin.stop(true);
    }
  });
});
