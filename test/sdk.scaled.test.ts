import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver, type CallbackReceiver, type ReceivedCallback } from '../e2e/support/callbackReceiver';
import { listenLoopback, type LoopbackServer } from '../e2e/support/httpServer';
import { callbackRequest } from '../src/server/callbacks/payload';
import {
  ApiError,
  CallbackError,
  createClient,
  isApiError,
  isCallbackError,
  verifyCallback,
  type FetchLike,
  type VideoClient,
} from '../src/sdk';
import { startTestService, type TestService } from './support/service';

const APP = { appId: 'sdk-app', appSecret: 'secret-of-the-sdk-app-0123456789' };
const OTHER = { appId: 'other-app', appSecret: 'secret-of-the-other-app-0123456789' };

let service: TestService;
let receiver: CallbackReceiver;
let missingSource: LoopbackServer;
let client: VideoClient;
/** Every request the client sent, so the tests can tell a refusal before the network from one after. */
const sent: string[] = [];

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  missingSource = await listenLoopback((_req, res) => void res.writeHead(404).end());
  service = await startTestService({
    apps: [{ ...APP, callbackUrl: receiver.url, readableApps: [OTHER.appId] }, OTHER],
    env: { SOURCE_URL_ALLOW_PRIVATE: '1' },
  });
  const counting: FetchLike = (url, init) => {
    sent.push(url);
    return fetch(url, init);
  };
  client = createClient({ baseUrl: `${service.address}/`, ...APP, fetch: counting });
});

afterAll(async () => {
  await service?.stop(true);
  await receiver?.close();
  await missingSource?.close();
});

describe('createClient', () => {
  it('registers, reads and lists videos with typed replies', async () => {
    const videoId = await client.postVideo({ VideoTitle: 'SDK video', CreateUser: 'sdk-user', SourceFileGetType: 1 });
    expect(videoId).toMatch(/^[0-9a-f-]{36}$/);

    const got = await client.getVideo(videoId);
    expect(got.AuthMsg.ResultCode).toBe('1');
    expect(got.Video).toMatchObject({ Id: videoId, VideoTitle: 'SDK video', Status: 8, CreateUser: 'sdk-user', Duration: 0 });
    expect(got.MediaSever.PlayURL).toBe('');
    expect(got.VideoPlayFile).toEqual([]);

    await client.postVideo({ VideoTitle: 'second', CreateUser: 'sdk-user', SourceFileGetType: 1 });
    const page = await client.listUserVideos({ createUser: 'sdk-user', pageIndex: 1, pageSize: 1 });
    expect(page.Total).toBe(2);
    expect(page.VideoList.map((video) => video.VideoTitle)).toEqual(['second']);

    const otherClient = createClient({ baseUrl: service.address, ...OTHER });
    await otherClient.postVideo({ VideoTitle: 'other', CreateUser: 'sdk-user', SourceFileGetType: 1 });
    const byAId = await client.listUserVideosByAId({ createUser: 'sdk-user', aId: OTHER.appId });
    expect(byAId.VideoList.map((video) => video.VideoTitle)).toEqual(['other']);
  });

  it('makes a widget config of strings that the upload page accepts', async () => {
    const videoId = await client.postVideo({ VideoTitle: 'for the widget', SourceFileGetType: 1 });
    const config = client.widgetConfig(videoId);
    expect(Object.values(config).every((value) => typeof value === 'string')).toBe(true);
    expect(config).toMatchObject({ appId: APP.appId, videoId });
    expect(JSON.stringify(config)).not.toContain(APP.appSecret);
    const query = new URLSearchParams({ ...config, channel: 'sdk-test-channel', origin: 'http://localhost:1234', form: 'popup' });
    const page = await fetch(`${service.address}/UploadWidget/Upload?${query}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('ErrorCode');
  });

  it('rejects a refused call with an ApiError carrying ResultCode, message and HTTP status', async () => {
    const wrongSecret = createClient({ baseUrl: service.address, appId: APP.appId, appSecret: 'not-the-secret' });
    const refused = await wrongSecret.getVideo('anything').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ name: 'ApiError', code: '104', status: 401 });
    expect(isApiError(refused)).toBe(true);

    await expect(client.getVideo('no-such-video')).rejects.toMatchObject({
      code: '105',
      status: 404,
      message: expect.stringContaining('Video Not Exist'),
    });
    await expect(client.listUserVideosByAId({ createUser: 'x', aId: 'not-readable' })).rejects.toMatchObject({ code: '108', status: 403 });
  });

  it('rejects with the cause attached when the service cannot be reached', async () => {
    const closed = await listenLoopback(() => undefined);
    await closed.close();
    const offline = createClient({ baseUrl: `http://127.0.0.1:${closed.port}`, ...APP });
    const failure = await offline.getVideo('x').catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'ApiError', code: 'network', status: 0 });
    expect((failure as ApiError).cause).toBeInstanceOf(Error);
  });

  it('refuses bad arguments with a clear error before any request', async () => {
    expect(() => createClient({ baseUrl: service.address, appId: APP.appId, appSecret: '' })).toThrow(/`appSecret`/);
    expect(() => createClient({ baseUrl: 'ftp://127.0.0.1/', ...APP })).toThrow(/`baseUrl` must be an http or https URL/);
    expect(() => createClient({ baseUrl: 'localhost:8080', ...APP })).toThrow(/`baseUrl`/);
    const before = sent.length;
    await expect(client.listUserVideos({ createUser: 'u', pageSize: 0 })).rejects.toThrow(RangeError);
    await expect(client.listUserVideos({ createUser: 'u', pageSize: 101 })).rejects.toThrow(
      /`pageSize` must be a whole number from 1 to 100/,
    );
    await expect(client.listUserVideos({ createUser: '' })).rejects.toThrow(/`createUser`/);
    await expect(client.postVideo({ VideoTitle: 'x', SourceFileGetType: 3 } as never)).rejects.toThrow(/SourceFileGetType/);
    await expect(client.postVideo({ VideoTitle: 'x', SourceFileGetType: 1, Tag: 'typo' } as never)).rejects.toThrow(
      /`Tag` is not a field of the Post model/,
    );
    await expect(client.getVideo('')).rejects.toThrow(/`id`/);
    expect(sent.length).toBe(before);
  });
});

describe('verifyCallback', () => {
  /** A real callback: a type-2 video whose source answers 404 ends in status 4 and is reported. */
  let real: ReceivedCallback;
  beforeAll(async () => {
    const videoId = await client.postVideo({
      VideoTitle: 'gone',
      SourceFileGetType: 2,
      SourceFilePath: `http://127.0.0.1:${missingSource.port}/gone.mp4`,
    });
    real = await receiver.waitFor(videoId, undefined, 30_000);
  });

  it("accepts the service's callback as raw string or bytes with Node headers, as fetch Headers, URLSearchParams or object", () => {
    const expected = { videoId: real.fields.VideoId, videoStatus: 4 };
    expect(verifyCallback(real.body, { ...APP, headers: real.headers })).toEqual(expected);
    expect(verifyCallback(Buffer.from(real.body), { ...APP, headers: real.headers })).toEqual(expected);
    expect(verifyCallback(real.body, { ...APP, headers: new Headers({ 'X-Signature': String(real.headers['x-signature']) }) })).toEqual(
      expected,
    );
    expect(verifyCallback(new URLSearchParams(real.body), { ...APP, headers: real.headers })).toEqual(expected);
    expect(verifyCallback(new URLSearchParams(real.body), { ...APP, allowUnsigned: true })).toEqual(expected);
    expect(verifyCallback(real.fields, { ...APP, headers: real.headers })).toEqual(expected);
  });

  const refusal = (run: () => unknown): CallbackError => {
    try {
      run();
    } catch (error) {
      expect(isCallbackError(error)).toBe(true);
      expect((error as Error).message).not.toContain(APP.appSecret);
      return error as CallbackError;
    }
    throw new Error('expected a refusal');
  };

  it('names each refusal: missing, duplicated, wrong app, wrong token, bad signature, stale timestamp', () => {
    const fields = new URLSearchParams(real.body);
    const without = new URLSearchParams(fields);
    without.delete('Token');
    const signed = { ...APP, headers: real.headers };
    expect(refusal(() => verifyCallback(without, signed))).toMatchObject({ code: 'missing-field', field: 'Token' });
    expect(refusal(() => verifyCallback(`${real.body}&VideoStatus=1`, signed))).toMatchObject({
      code: 'duplicate-field',
      field: 'VideoStatus',
    });
    expect(refusal(() => verifyCallback(real.body, { ...OTHER, headers: real.headers }))).toMatchObject({ code: 'wrong-app' });
    expect(refusal(() => verifyCallback(real.body, { ...signed, appSecret: OTHER.appSecret }))).toMatchObject({
      code: 'wrong-token',
      field: 'Token',
    });

    const forged = real.body.replace('VideoStatus=4', 'VideoStatus=1');
    expect(refusal(() => verifyCallback(forged, { ...APP, headers: real.headers }))).toMatchObject({
      code: 'bad-signature',
      field: 'X-Signature',
    });
    expect(refusal(() => verifyCallback(real.body, { ...APP, headers: {} }))).toMatchObject({
      code: 'bad-signature',
      message: expect.stringContaining('missing'),
    });

    const old = callbackRequest(APP, 'v-1', 1, Date.now() - 601_000);
    expect(refusal(() => verifyCallback(old.body, { ...APP, headers: { 'x-signature': old.signature } }))).toMatchObject({
      code: 'stale-timestamp',
    });
    const fresh = callbackRequest(APP, 'v-1', 1, Date.now() + 590_000);
    expect(verifyCallback(fresh.body, { ...APP, headers: { 'x-signature': fresh.signature } })).toEqual({ videoId: 'v-1', videoStatus: 1 });
  });

  it('refuses a callback forged from what a browser sees unless the caller opts into allowUnsigned', () => {
    // AppId, a Timestamp and its md5 Token (as in a widget config signed by hand), any VideoId.
    const seen = callbackRequest(APP, 'someone-elses-video', 1, Date.now());
    expect(refusal(() => verifyCallback(seen.body, APP))).toMatchObject({ code: 'signature-required', field: 'X-Signature' });
    expect(refusal(() => verifyCallback(seen.body, { ...APP, headers: {} }))).toMatchObject({ code: 'bad-signature' });
    // The weaker check, chosen on purpose: the forgery passes, which is why it is not the default.
    expect(verifyCallback(seen.body, { ...APP, allowUnsigned: true })).toEqual({ videoId: 'someone-elses-video', videoStatus: 1 });
  });

  it("accepts only the spec's states 0 to 8 as VideoStatus, even when signed", () => {
    for (const status of [0, 8]) {
      const genuine = callbackRequest(APP, 'v-1', status, Date.now());
      expect(verifyCallback(genuine.body, { ...APP, headers: { 'x-signature': genuine.signature } }).videoStatus).toBe(status);
    }
    for (const status of [9, 999999999]) {
      const odd = callbackRequest(APP, 'v-1', status, Date.now());
      expect(refusal(() => verifyCallback(odd.body, { ...APP, headers: { 'x-signature': odd.signature } }))).toMatchObject({
        code: 'invalid-field',
        field: 'VideoStatus',
      });
    }
  });

  it('requires its own arguments', () => {
    expect(refusal(() => verifyCallback(real.body, { appId: APP.appId, appSecret: '' }))).toMatchObject({
      code: 'invalid-input',
      field: 'appSecret',
    });
  });
});
