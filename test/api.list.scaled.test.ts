import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_APPS, startTestService, type TestService } from './support/service';

const NINE = ['Id', 'VideoTitle', 'Description', 'Tags', 'Actors', 'Status', 'CreateDate', 'CreateUser', 'PicSavePath'];

let service: TestService;
const aliceIds: string[] = []; // app-a's videos by alice, oldest first

beforeAll(async () => {
  service = await startTestService({
    apps: [...TEST_APPS, { appId: 'app-c', appSecret: 'secret-of-app-c-0123456789', readableApps: ['app-a'] }],
  });
  const register = async (appId: string, user: string, title: string) => {
    const reply = await service.post({ ...service.auth(appId), VideoTitle: title, SourceFileGetType: '1', CreateUser: user });
    return reply.body.VideoId as string;
  };
  for (let i = 1; i <= 23; i++) aliceIds.push(await register('app-a', 'alice', `alice ${i}`));
  await register('app-a', 'bob', 'bob 1');
  await register('app-b', 'alice', 'alice at b');
  await register('app-c', 'alice', 'alice at c');
});
afterAll(() => service.stop(true));

const newestFirst = () => [...aliceIds].reverse();
const list = (query: Record<string, string>, appId = 'app-a') =>
  service.get('/Api/Video/GetUserVideoList', { ...service.auth(appId), ...query });
const listByAId = (query: Record<string, string>, appId = 'app-a') =>
  service.get('/Api/Video/GetUserVideoListByAId', { ...service.auth(appId), ...query });
const ids = (body: { VideoList: { Id: string }[] }) => body.VideoList.map((video) => video.Id);

describe('GET /Api/Video/GetUserVideoList', () => {
  it('replies {AuthMsg, Total, VideoList}: the first page of 10, newest first, Total counting all 23', async () => {
    const reply = await list({ createUser: 'alice' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['AuthMsg', 'Total', 'VideoList']);
    expect(reply.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    expect(reply.body.Total).toBe(23);
    expect(ids(reply.body)).toEqual(newestFirst().slice(0, 10));
  });

  it('gives each element exactly the nine fields', async () => {
    const { VideoList } = (await list({ createUser: 'alice', PageSize: '1' })).body;
    expect(Object.keys(VideoList[0]).sort()).toEqual([...NINE].sort());
    expect(VideoList[0]).toMatchObject({ Id: aliceIds.at(-1), VideoTitle: 'alice 23', CreateUser: 'alice', Status: 8, PicSavePath: '' });
  });

  it('counts PageIndex from 1: page 1 is the newest, page 3 holds the last 3', async () => {
    expect(ids((await list({ createUser: 'alice', PageIndex: '1' })).body)).toEqual(newestFirst().slice(0, 10));
    expect(ids((await list({ createUser: 'alice', PageIndex: '2' })).body)).toEqual(newestFirst().slice(10, 20));
    const last = (await list({ createUser: 'alice', PageIndex: '3' })).body;
    expect(ids(last)).toEqual(newestFirst().slice(20));
    expect(last.Total).toBe(23);
  });

  it('gives an empty list past the last page, still with Total', async () => {
    expect((await list({ createUser: 'alice', PageIndex: '4' })).body).toMatchObject({ Total: 23, VideoList: [] });
  });

  it('takes PageSize up to 100', async () => {
    expect(ids((await list({ createUser: 'alice', PageSize: '7', PageIndex: '2' })).body)).toEqual(newestFirst().slice(7, 14));
    expect(ids((await list({ createUser: 'alice', PageSize: '100' })).body)).toEqual(newestFirst());
    const tooBig = await list({ createUser: 'alice', PageSize: '101' });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.AuthMsg.ResultCode).toBe('106');
  });

  it('lists only the calling app’s videos of that exact user', async () => {
    expect((await list({ createUser: 'bob' })).body.Total).toBe(1);
    expect((await list({ createUser: 'Alice' })).body).toMatchObject({ Total: 0, VideoList: [] });
    expect((await list({ createUser: 'alice' }, 'app-b')).body.VideoList.map((v: { VideoTitle: string }) => v.VideoTitle)).toEqual([
      'alice at b',
    ]);
    // readableApps opens GetUserVideoListByAId only; this endpoint stays the caller's own.
    expect((await list({ createUser: 'alice' }, 'app-c')).body.Total).toBe(1);
  });

  it('finds a user whose name was cut at registration by the same over-long name', async () => {
    const long = '用户'.repeat(40);
    await service.post({ ...service.auth(), VideoTitle: 'long name', SourceFileGetType: '1', CreateUser: long });
    const body = (await list({ createUser: long })).body;
    expect(body.Total).toBe(1);
    expect(body.VideoList[0].CreateUser).toBe('用户'.repeat(25));
  });
});

describe('GET /Api/Video/GetUserVideoListByAId', () => {
  it('lists the videos that app aId registered, like GetUserVideoList when aId is the caller', async () => {
    const reply = await listByAId({ createUser: 'alice', aId: 'app-a', PageIndex: '2', PageSize: '5' });
    expect(Object.keys(reply.body)).toEqual(['AuthMsg', 'Total', 'VideoList']);
    expect(reply.body.Total).toBe(23);
    expect(ids(reply.body)).toEqual(newestFirst().slice(5, 10));
    expect(Object.keys(reply.body.VideoList[0]).sort()).toEqual([...NINE].sort());
  });

  it('lets an app read another app listed in its readableApps', async () => {
    const reply = await listByAId({ createUser: 'alice', aId: 'app-a' }, 'app-c');
    expect(reply.body.Total).toBe(23);
    expect(ids(reply.body)).toEqual(newestFirst().slice(0, 10));
  });

  it('refuses other apps with 108, also when the aId is unknown, and shows nothing', async () => {
    for (const [caller, aId] of [
      ['app-b', 'app-a'],
      ['app-a', 'app-c'],
      ['app-a', 'no-such-app'],
    ] as const) {
      const reply = await listByAId({ createUser: 'alice', aId }, caller);
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({
        AuthMsg: { ResultCode: '108', ResultMessage: `No Permission: this app may not read the videos of aId ${aId}` },
      });
    }
  });

  it('readableApps does not extend to Get', async () => {
    const reply = await service.get('/Api/Video/Get', { ...service.auth('app-c'), Id: aliceIds[0]! });
    expect(reply.body.AuthMsg.ResultCode).toBe('105');
  });
});
