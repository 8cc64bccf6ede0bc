import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver, type CallbackReceiver } from '../e2e/support/callbackReceiver';
import { listenLoopback, type LoopbackServer } from '../e2e/support/httpServer';
import { verifyCallback } from '../src/sdk';
import type { AppRecord } from '../src/server/auth/apps';
import { signScopedToken, signToken } from '../src/server/auth/token';
import { TICKET_HEADER, type UploadPageBoot } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { errorLine, getPage, jsonBlock, pageQuery, resultCode, tusCreate, tusHead, tusPatch } from './uploadHelpers';

const OLD = 'the-old-secret-of-rotating-0123456789';
const NEW = 'the-new-secret-of-rotating-0123456789';
const HOUR = 3_600_000;

/** The service's clock: real time moved by `offset`, so a test can step past previousSecretUntil. */
let offset = 0;
const clock = () => Date.now() + offset;

let service: TestService;
let receiver: CallbackReceiver;
let missingSource: LoopbackServer;
let rotating: AppRecord;
const steady: AppRecord = { appId: 'steady', appSecret: 'secret-of-the-steady-app-0123456789' };

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  missingSource = await listenLoopback((_req, res) => void res.writeHead(404).end());
  rotating = { appId: 'rotating', appSecret: OLD, callbackUrl: receiver.url };
  service = await startTestService({ apps: [rotating, steady], now: clock, env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
});
afterAll(async () => {
  await service?.stop(true);
  await receiver?.close();
  await missingSource?.close();
});

/** AppId/Timestamp/Token signed with `secret` at the service's clock. */
function signed(appId: string, secret: string) {
  const Timestamp = String(Math.floor(clock() / 1000));
  return { AppId: appId, Timestamp, Token: signToken(Timestamp, secret) };
}

async function register(appId: string, secret: string, fields: Record<string, string> = { SourceFileGetType: '1' }): Promise<string> {
  const reply = await service.post({ ...signed(appId, secret), VideoTitle: 'clip', ...fields });
  expect(reply.body.AuthMsg.ResultCode).toBe('1');
  return reply.body.VideoId as string;
}

/** The upload page of `videoId` signed with `secret` (md5 or scoped), as the loader asks for it. */
function page(appId: string, secret: string, videoId: string, kind: 'md5' | 'scoped' = 'md5') {
  const { Timestamp, Token } = signed(appId, secret);
  const token = kind === 'md5' ? Token : signScopedToken(appId, Timestamp, videoId, secret);
  return getPage(service, pageQuery(service, videoId, { appId, timestamp: Timestamp, token }, appId));
}

async function openUpload(appId: string, secret: string): Promise<{ boot: UploadPageBoot; uploadUrl: string }> {
  const videoId = await register(appId, secret);
  const opened = await page(appId, secret, videoId);
  expect(opened.status).toBe(200);
  const boot = jsonBlock<UploadPageBoot>(opened.html, 'upload-boot')!;
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, 8);
  expect(created.status).toBe(201);
  return { boot, uploadUrl: created.headers.get('location')! };
}

const status = (boot: UploadPageBoot) => fetch(`${service.address}/UploadWidget/Status`, { headers: { [TICKET_HEADER]: boot.ticket } });

describe('rotating a secret with previousSecret and previousSecretUntil', () => {
  it('takes calls, pages and tickets signed with the previous secret until that time, and refuses them after it', async () => {
    offset = 0;
    const before = await openUpload(rotating.appId, OLD);
    expect((await tusPatch(before.uploadUrl, before.boot.ticket, 0, new Uint8Array(2))).status).toBe(204);

    rotating = { ...rotating, appSecret: NEW, previousSecret: OLD, previousSecretUntil: clock() + HOUR };
    service.replaceApps([rotating, steady]);

    // Inside the window: both secrets sign calls and pages; the open page's ticket still uploads.
    const videoId = await register(rotating.appId, OLD);
    await register(rotating.appId, NEW);
    expect((await page(rotating.appId, OLD, videoId)).status).toBe(200);
    expect((await page(rotating.appId, OLD, videoId, 'scoped')).status).toBe(200);
    expect((await tusPatch(before.uploadUrl, before.boot.ticket, 2, new Uint8Array(2))).status).toBe(204);
    const during = await openUpload(rotating.appId, NEW);

    offset = 2 * HOUR;
    const calls = await service.get('/Api/Video/Get', { ...signed(rotating.appId, OLD), Id: videoId });
    expect(calls.status).toBe(401);
    expect(calls.body.AuthMsg.ResultCode).toBe('104');
    expect(errorLine((await page(rotating.appId, OLD, videoId)).html)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
    expect(errorLine((await page(rotating.appId, OLD, videoId, 'scoped')).html)).toBe(
      'ErrorCode : 104, ErrorMessage : App SecretKey Error',
    );
    const refused = await tusPatch(before.uploadUrl, before.boot.ticket, 4, new Uint8Array(2));
    expect(refused.status).toBe(401);
    expect(resultCode(refused.body)).toBe('104');
    // What the new secret signed goes on.
    expect((await service.get('/Api/Video/Get', { ...signed(rotating.appId, NEW), Id: videoId })).body.AuthMsg.ResultCode).toBe('1');
    expect((await tusPatch(during.uploadUrl, during.boot.ticket, 0, new Uint8Array(2))).status).toBe(204);
    offset = 0;
  });

  it('signs the status callback with the current secret only, during the window too', async () => {
    rotating = { ...rotating, appSecret: NEW, previousSecret: OLD, previousSecretUntil: clock() + HOUR };
    service.replaceApps([rotating, steady]);
    const videoId = await register(rotating.appId, NEW, {
      SourceFileGetType: '2',
      SourceFilePath: `http://127.0.0.1:${missingSource.port}/gone.mp4`,
    });
    const callback = await receiver.waitFor(videoId, undefined, 30_000);
    expect(verifyCallback(callback.body, { appId: rotating.appId, appSecret: NEW, headers: callback.headers })).toEqual({
      videoId,
      videoStatus: 4,
    });
    expect(() => verifyCallback(callback.body, { appId: rotating.appId, appSecret: OLD, headers: callback.headers })).toThrow(/Token/);
  });
});

describe('removing an app or changing its secret without previousSecret', () => {
  it("refuses the open page's ticket from the next tus request on, when the app is removed", async () => {
    const { boot, uploadUrl } = await openUpload(steady.appId, steady.appSecret);
    expect((await tusPatch(uploadUrl, boot.ticket, 0, new Uint8Array(2))).status).toBe(204);
    service.replaceApps([rotating]);
    try {
      const patch = await tusPatch(uploadUrl, boot.ticket, 2, new Uint8Array(2));
      expect(patch.status).toBe(401);
      expect(resultCode(patch.body)).toBe('102');
      expect((await tusHead(uploadUrl, boot.ticket)).status).toBe(401);
      expect((await status(boot)).status).toBe(401);
      expect(
        (await service.get('/Api/Video/GetUserVideoList', { ...signed(steady.appId, steady.appSecret), createUser: 'x' })).body.AuthMsg
          .ResultCode,
      ).toBe('102');
    } finally {
      service.replaceApps([rotating, steady]);
    }
  });

  it('refuses the ticket, the md5 pages and the calls of the old secret at once, when the secret changes', async () => {
    const { boot, uploadUrl } = await openUpload(steady.appId, steady.appSecret);
    const videoId = await register(steady.appId, steady.appSecret);
    service.replaceApps([rotating, { ...steady, appSecret: 'a-brand-new-steady-secret-0123456789' }]);
    try {
      const patch = await tusPatch(uploadUrl, boot.ticket, 0, new Uint8Array(2));
      expect(patch.status).toBe(401);
      expect(resultCode(patch.body)).toBe('104');
      expect((await status(boot)).status).toBe(401);
      expect(errorLine((await page(steady.appId, steady.appSecret, videoId)).html)).toBe(
        'ErrorCode : 104, ErrorMessage : App SecretKey Error',
      );
      expect((await page(steady.appId, 'a-brand-new-steady-secret-0123456789', videoId)).status).toBe(200);
    } finally {
      service.replaceApps([rotating, steady]);
    }
  });
});
