import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FAMILY = '👨‍👩‍👧‍👦';
// Type-2 sources name loopback port 9: the download part refuses private addresses before
// connecting, so no test here reaches the network.

async function read(id: string) {
  return (await service.get('/Api/Video/Get', { ...service.auth(), Id: id })).body.Video;
}

describe('POST /Api/Video/Post', () => {
  it('replies exactly {AuthMsg, VideoId} with a GUID-style id, and stores one row', async () => {
    const before = await service.videoCount();
    const reply = await service.post({ ...service.auth(), VideoTitle: 'hello', SourceFileGetType: '1' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(reply.body)).toEqual(['AuthMsg', 'VideoId']);
    expect(reply.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    expect(reply.body.VideoId).toMatch(GUID);
    expect(await service.videoCount()).toBe(before + 1);
  });

  it('takes AppId, Timestamp and Token from the query, the body, or split between them', async () => {
    const { AppId, Timestamp, Token } = service.auth();
    const model = { VideoTitle: 't', SourceFileGetType: '1' };
    for (const [query, form] of [
      [{ AppId, Timestamp, Token }, model],
      [{}, { AppId, Timestamp, Token, ...model }],
      [{ AppId }, { Timestamp, Token, ...model }],
      // The same value in both places is not a conflict.
      [
        { AppId, Timestamp, Token },
        { AppId, Timestamp, Token, ...model },
      ],
    ] as const) {
      const reply = await service.post(form, query);
      expect(reply.body.AuthMsg.ResultCode, JSON.stringify(query)).toBe('1');
    }
  });

  it('accepts the whole registration in the query with an empty body', async () => {
    const reply = await service.post({}, { ...service.auth(), VideoTitle: 'query only', SourceFileGetType: '1' });
    expect(reply.body.AuthMsg.ResultCode).toBe('1');
    expect((await read(reply.body.VideoId)).VideoTitle).toBe('query only');
  });

  it('registers type 1 in status 8 with no SourceFilePath kept, type 2 in status 2', async () => {
    const one = await service.post({
      ...service.auth(),
      VideoTitle: 'one',
      SourceFileGetType: '1',
      SourceFilePath: 'http://127.0.0.1:9/a.mp4',
    });
    expect((await read(one.body.VideoId)).Status).toBe(8);
    expect((await service.context.stores.videos.get(one.body.VideoId))!.sourcePath).toBe('');
    const two = await service.post({
      ...service.auth(),
      VideoTitle: 'two',
      SourceFileGetType: '2',
      SourceFilePath: 'http://127.0.0.1:9/a.mp4',
    });
    expect(two.body.AuthMsg.ResultCode).toBe('1');
    expect((await service.context.stores.videos.get(two.body.VideoId))!.sourcePath).toBe('http://127.0.0.1:9/a.mp4');
  });

  it('stores every field, cutting over-long Chinese and emoji text by code points without error', async () => {
    const reply = await service.post({
      ...service.auth(),
      VideoTitle: '长'.repeat(47) + FAMILY + '尾巴',
      Description: '描述😀'.repeat(200),
      Tags: '风景，旅行,美食，音乐,电影,动画,纪录片',
      Actors: '演员'.repeat(26),
      CreateUser: '用户'.repeat(30),
      SourceFileGetType: '2',
      SourceFilePath: 'http://127.0.0.1:9/' + '文'.repeat(200) + '.mp4',
    });
    expect(reply.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    const video = await read(reply.body.VideoId);
    // The family emoji straddles code point 50, so it goes whole rather than as a broken glyph.
    expect(video.VideoTitle).toBe('长'.repeat(47));
    expect(Array.from(video.Description)).toHaveLength(400);
    expect(video.Tags).toBe('风景,旅行,美食,音乐,电影');
    expect(video.Actors).toBe('演员'.repeat(25));
    expect(video.CreateUser).toBe('用户'.repeat(25));
    expect(Array.from((await service.context.stores.videos.get(reply.body.VideoId))!.sourcePath)).toHaveLength(200);
  });

  it('keeps text at exactly the limits unchanged', async () => {
    const reply = await service.post({
      ...service.auth(),
      VideoTitle: '😀'.repeat(50),
      Tags: ['a'.repeat(10), 'b'.repeat(10), 'c'.repeat(10), 'd'.repeat(10), 'e'.repeat(16)].join(','),
      SourceFileGetType: '1',
    });
    const video = await read(reply.body.VideoId);
    expect(video.VideoTitle).toBe('😀'.repeat(50));
    expect(video.Tags).toHaveLength(60);
  });

  it('gives every registration its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await service.post({ ...service.auth(), VideoTitle: `v${i}`, SourceFileGetType: '1' })).body.VideoId);
    expect(ids.size).toBe(5);
  });
});
