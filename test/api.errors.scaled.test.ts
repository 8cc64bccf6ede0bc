import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';
import { ERRORS, MAX_DETAIL_CHARS, type ErrorName } from '../src/server/errors';
import { MAX_FORM_BYTES } from '../src/server/http/params';
import { createLogger } from '../src/server/log';
import { refuseVideoInserts } from './support/database';
import { TEST_APPS, startTestService, type ApiReply, type TestService } from './support/service';

/**
 * Every row of the error table, provoked over HTTP on a real socket. Rows owned by the upload
 * part (FILE_TOO_LARGE, WRONG_STATE) are tested there; no endpoint here can reach them.
 */

const SECRET = TEST_APPS[0]!.appSecret;
let service: TestService;
let alien: string; // a video of app-b
const logLines: string[] = [];

beforeAll(async () => {
  service = await startTestService({ log: createLogger((line) => logLines.push(line)) });
  alien = (await service.post({ ...service.auth('app-b'), VideoTitle: 'b', SourceFileGetType: '1' })).body.VideoId;
});
afterAll(() => service.stop(true));

function expectError(reply: ApiReply, kind: ErrorName, detail?: string): void {
  const row = ERRORS[kind];
  expect(reply.status).toBe(row.http);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(Object.keys(reply.body)).toEqual(['AuthMsg']);
  expect(reply.body.AuthMsg.ResultCode).toBe(row.code);
  expect(reply.body.AuthMsg.ResultMessage).toBe(detail === undefined ? row.message : `${row.message}: ${detail}`);
  const text = JSON.stringify(reply.body);
  expect(text).not.toMatch(/\bat .*:\d+|\.ts\b|node_modules/);
  for (const app of TEST_APPS) expect(text).not.toContain(app.appSecret);
}

const register = (form: Record<string, string>) => service.post({ VideoTitle: 't', SourceFileGetType: '1', ...form });

describe('every error code over HTTP, with no row written', () => {
  let before: number;
  beforeAll(async () => {
    before = await service.videoCount();
  });
  afterAll(async () => {
    expect(await service.videoCount()).toBe(before);
  });

  it('101 Missing Parameter names the parameter, spelt as the spec writes it', async () => {
    const { AppId, Timestamp, Token } = service.auth();
    expectError(await register({ Timestamp, Token }), 'MISSING_PARAMETER', 'AppId');
    expectError(await register({ AppId, Token }), 'MISSING_PARAMETER', 'Timestamp');
    expectError(await register({ AppId, Timestamp, Token: ' ' }), 'MISSING_PARAMETER', 'Token');
    // Names are case-sensitive: `appid` is not `AppId`.
    expectError(await register({ appid: AppId, Timestamp, Token }), 'MISSING_PARAMETER', 'AppId');
    expectError(await service.post({ ...service.auth(), SourceFileGetType: '1' }), 'MISSING_PARAMETER', 'VideoTitle');
    expectError(await service.post({ ...service.auth(), VideoTitle: 't' }), 'MISSING_PARAMETER', 'SourceFileGetType');
    expectError(
      await service.post({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '2' }),
      'MISSING_PARAMETER',
      'SourceFilePath (required when SourceFileGetType is 2)',
    );
    expectError(await service.get('/Api/Video/Get', service.auth()), 'MISSING_PARAMETER', 'Id');
    expectError(await service.get('/Api/Video/Get', { ...service.auth(), id: alien }), 'MISSING_PARAMETER', 'Id');
    expectError(await service.get('/Api/Video/GetUserVideoList', service.auth()), 'MISSING_PARAMETER', 'createUser');
    expectError(
      await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), CreateUser: 'u' }),
      'MISSING_PARAMETER',
      'createUser',
    );
    expectError(await service.get('/Api/Video/GetUserVideoListByAId', { ...service.auth(), createUser: 'u' }), 'MISSING_PARAMETER', 'aId');
  });

  it('102 AppId Not Exist', async () => {
    expectError(await register({ ...service.auth(), AppId: 'no-such-app' }), 'UNKNOWN_APP');
    expectError(await service.get('/Api/Video/Get', { ...service.auth(), AppId: 'APP-A', Id: alien }), 'UNKNOWN_APP');
  });

  it('103 Timestamp Expired, either side of the window', async () => {
    const detail = 'more than 600 seconds from the server time';
    expectError(await register(service.auth('app-a', Date.now() - 700_000)), 'TIMESTAMP_OUT_OF_RANGE', detail);
    expectError(await register(service.auth('app-a', Date.now() + 700_000)), 'TIMESTAMP_OUT_OF_RANGE', detail);
    expectError(
      await service.get('/Api/Video/GetUserVideoList', { ...service.auth('app-a', 0), createUser: 'u' }),
      'TIMESTAMP_OUT_OF_RANGE',
      detail,
    );
  });

  it('104 App SecretKey Error for a token signed with another secret, a changed timestamp or in capitals', async () => {
    const auth = service.auth();
    expectError(await register({ ...auth, Token: signToken(auth.Timestamp, 'not-the-secret') }), 'BAD_TOKEN');
    expectError(await register({ ...auth, Timestamp: String(Number(auth.Timestamp) + 1) }), 'BAD_TOKEN');
    expectError(await register({ ...auth, Token: auth.Token.toUpperCase() }), 'BAD_TOKEN');
    expectError(await register({ ...auth, Token: 'x' }), 'BAD_TOKEN');
    expectError(
      await service.get('/Api/Video/Get', { ...auth, Token: signToken(auth.Timestamp, TEST_APPS[1]!.appSecret), Id: alien }),
      'BAD_TOKEN',
    );
  });

  it('105 Video Not Exist for an unknown id and for another app’s video', async () => {
    expectError(await service.get('/Api/Video/Get', { ...service.auth(), Id: 'no-such-video' }), 'UNKNOWN_VIDEO', 'no-such-video');
    expectError(await service.get('/Api/Video/Get', { ...service.auth('app-a'), Id: alien }), 'UNKNOWN_VIDEO', alien);
  });

  it('echoes at most MAX_DETAIL_CHARS of what the client sent', async () => {
    const id = 'x'.repeat(15_000);
    expectError(await service.get('/Api/Video/Get', { ...service.auth(), Id: id }), 'UNKNOWN_VIDEO', `${id.slice(0, MAX_DETAIL_CHARS)}…`);
  });

  it('106 Invalid Parameter for bad values, a conflicting duplicate, a wrong body type, a bad Timestamp', async () => {
    expectError(
      await register({ ...service.auth(), SourceFileGetType: '3' }),
      'INVALID_PARAMETER',
      'SourceFileGetType must be 1 (upload widget) or 2 (server download)',
    );
    expectError(
      await register({ ...service.auth(), SourceFileGetType: '2', SourceFilePath: 'file:///etc/passwd' }),
      'INVALID_PARAMETER',
      'SourceFilePath must be an http or https URL',
    );
    expectError(
      await register({ ...service.auth(), Timestamp: '1.7e9' }),
      'INVALID_PARAMETER',
      'Timestamp must be whole seconds since 1970 in decimal digits',
    );
    // The signed AppId in the query and another in the body: which one to believe is not guessed.
    expectError(
      await service.post({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '1' }, { AppId: 'app-b' }),
      'INVALID_PARAMETER',
      'AppId is given more than once with different values',
    );
    const twoTitles = new URLSearchParams({ ...service.auth(), SourceFileGetType: '1' });
    twoTitles.append('VideoTitle', 'one');
    twoTitles.append('VideoTitle', 'two');
    expectError(await service.post(twoTitles), 'INVALID_PARAMETER', 'VideoTitle is given more than once with different values');
    const json = await fetch(`${service.address}/Api/Video/Post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '1' }),
    });
    expectError(
      { status: json.status, headers: json.headers, body: await json.json() },
      'INVALID_PARAMETER',
      'the body must be application/x-www-form-urlencoded',
    );
    expectError(
      await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), createUser: 'u', PageIndex: '0' }),
      'INVALID_PARAMETER',
      'PageIndex must be a whole number from 1 to 1000000',
    );
    expectError(
      await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), createUser: 'u', PageSize: '101' }),
      'INVALID_PARAMETER',
      'PageSize must be a whole number from 1 to 100',
    );
  });

  it('108 No Permission to list another app’s videos by aId', async () => {
    expectError(
      await service.get('/Api/Video/GetUserVideoListByAId', { ...service.auth('app-a'), createUser: 'u', aId: 'app-b' }),
      'NO_PERMISSION',
      'this app may not read the videos of aId app-b',
    );
  });

  it('109 Payload Too Large for a form body over 64 KiB, declared or chunked', async () => {
    const big = new URLSearchParams({
      ...service.auth(),
      VideoTitle: 't',
      SourceFileGetType: '1',
      Description: 'x'.repeat(MAX_FORM_BYTES),
    });
    expectError(await service.post(big), 'PAYLOAD_TOO_LARGE', `form body over ${MAX_FORM_BYTES} bytes`);

    // Without a Content-Length the limit is enforced on what arrives.
    const chunked = await new Promise<ApiReply>((resolve, reject) => {
      const req = httpRequest(`${service.address}/Api/Video/Post`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: new Headers(res.headers as Record<string, string>), body: JSON.parse(text) }),
        );
      });
      req.on('error', reject);
      for (let i = 0; i < 5; i++) req.write('Description=' + 'y'.repeat(16 * 1024) + '&');
      req.end(new URLSearchParams({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '1' }).toString());
    });
    expectError(chunked, 'PAYLOAD_TOO_LARGE', `form body over ${MAX_FORM_BYTES} bytes`);
  });

  it('110 Not Found for a path the service does not serve (paths are case-sensitive)', async () => {
    expectError(await service.get('/Api/Video/Delete', service.auth()), 'NOT_FOUND', '/Api/Video/Delete');
    expectError(await service.get('/api/video/get', service.auth()), 'NOT_FOUND', '/api/video/get');
  });

  it('111 Method Not Allowed for a known path with another method', async () => {
    expectError(await service.get('/Api/Video/Post', service.auth()), 'METHOD_NOT_ALLOWED', 'GET');
    const res = await fetch(`${service.address}/Api/Video/Get`, { method: 'POST', body: new URLSearchParams(service.auth()) });
    expectError({ status: res.status, headers: res.headers, body: await res.json() }, 'METHOD_NOT_ALLOWED', 'POST');
  });
});

/** Sends raw bytes, for request targets no HTTP client would produce. */
function rawRequest(text: string): Promise<string> {
  const { port } = new URL(service.address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk) => {
      received += chunk;
      if (/\r\n\r\n[\s\S]*\}\}$/.test(received)) socket.end();
    });
    socket.on('end', () => resolve(received)).on('error', reject);
  });
}

describe('request targets that are not plain paths', () => {
  it('answers `GET //` and `GET http://[` with a code, and keeps serving', async () => {
    expect(await rawRequest('GET // HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 404[\s\S]*"ResultCode":"110"/);
    expect(await rawRequest('GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400[\s\S]*\{"AuthMsg":\{"ResultCode":"106","ResultMessage":"Invalid Parameter: the request target is not a valid URL"\}\}/,
    );
    expect((await service.get('/Api/Video/Get', { ...service.auth('app-b'), Id: alien })).body.AuthMsg.ResultCode).toBe('1');
  });
});

describe('500 Internal Error', () => {
  it('is a JSON reply without a stack trace when stored data is corrupt, logged without the secret', async () => {
    const logged = logLines.length;
    // A real fault, not test-only code: a row whose CreateDate no calendar can show.
    await service.db
      .insertInto('videos')
      .values({ id: 'corrupt', app_id: 'app-a', title: 't', source_get_type: 1, status: 8, created_at: 9e15, updated_at: 0 })
      .execute();
    const auth = service.auth();
    expectError(await service.get('/Api/Video/Get', { ...auth, Id: 'corrupt' }), 'INTERNAL');
    const lines = logLines.slice(logged);
    expect(lines.some((line) => line.includes('unhandled error') && line.includes('RangeError'))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(auth.Token);
  });

  it('leaves no row behind when storing a registration fails', async () => {
    const before = await service.videoCount();
    const lift = await refuseVideoInserts(service.db, service.context.stores.dialect, 'disk full');
    try {
      expectError(
        await service.post({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '2', SourceFilePath: 'http://127.0.0.1:9/a.mp4' }),
        'INTERNAL',
      );
    } finally {
      await lift();
    }
    expect(await service.videoCount()).toBe(before);
    expect((await service.post({ ...service.auth(), VideoTitle: 't', SourceFileGetType: '1' })).status).toBe(200);
  });
});

describe('the log of all the failures above', () => {
  it('names no AppSecret', () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const app of TEST_APPS) expect(logLines.join('\n')).not.toContain(app.appSecret);
  });
});
