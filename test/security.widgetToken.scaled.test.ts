import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type VideoClient, type WidgetAuth } from '../src/sdk';
import { signScopedToken } from '../src/server/auth/token';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { SOAP_11_HEADERS, elementText, envelope, ENV_11, postElement, soapPost } from './support/soap';
import { startTestService, TEST_APPS, type TestService } from './support/service';
import { errorLine, getPage, jsonBlock, pageQuery, registerVideo, tusCreate, tusPatch } from './uploadHelpers';

/** An app that opens its upload pages with the scoped token only. */
const STRICT = { appId: 'app-strict', appSecret: 'secret-of-the-strict-app-0123456789', widgetToken: 'scoped' as const };
const APP_A = TEST_APPS[0]!;

let service: TestService;
let client: VideoClient;
beforeAll(async () => {
  service = await startTestService({ apps: [...TEST_APPS, STRICT] });
  client = createClient({ baseUrl: service.address, ...APP_A });
});
afterAll(() => service.stop(true));

/** The upload page's query for a widget config, as the loader builds it. */
const pageFor = (config: WidgetAuth) =>
  pageQuery(
    service,
    config.videoId,
    { appId: config.appId, timestamp: config.timestamp, token: config.token, videoId: config.videoId },
    config.appId,
  );

async function pageCode(query: URLSearchParams): Promise<string | undefined> {
  const page = await getPage(service, query);
  return page.status === 200 ? undefined : errorLine(page.html);
}

describe('the scoped widget token the SDK issues', () => {
  it('is the 64-hex HMAC of appId, timestamp and videoId, keyed with the AppSecret', async () => {
    const config = client.widgetConfig(await registerVideo(service));
    expect(config.token).toMatch(/^[0-9a-f]{64}$/);
    expect(config.token).toBe(signScopedToken(APP_A.appId, config.timestamp, config.videoId, APP_A.appSecret));
  });

  it("opens its own video's upload page, whose ticket takes the upload", async () => {
    const config = client.widgetConfig(await registerVideo(service));
    const page = await getPage(service, pageFor(config));
    expect(page.status).toBe(200);
    const boot = jsonBlock<UploadPageBoot>(page.html, 'upload-boot')!;
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, 4);
    expect(created.status).toBe(201);
    expect((await tusPatch(created.headers.get('location')!, boot.ticket, 0, new Uint8Array(2))).status).toBe(204);
  });

  it("does not open another video's page, not even of the same app", async () => {
    const config = client.widgetConfig(await registerVideo(service));
    const other = await registerVideo(service);
    const query = pageFor(config);
    query.set('videoId', other);
    expect(await pageCode(query)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
  });

  it('is refused by every REST API call and by SOAP Post with 104', async () => {
    const videoId = await registerVideo(service);
    const { appId, timestamp, token } = client.widgetConfig(videoId);
    const signed = { AppId: appId, Timestamp: timestamp, Token: token };
    for (const reply of [
      await service.get('/Api/Video/Get', { ...signed, Id: videoId }),
      await service.get('/Api/Video/GetUserVideoList', { ...signed, createUser: 'anyone' }),
      await service.get('/Api/Video/GetUserVideoListByAId', { ...signed, createUser: 'anyone', aId: appId }),
      await service.post({ ...signed, VideoTitle: 'not mine', SourceFileGetType: '1' }),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body.AuthMsg).toEqual({ ResultCode: '104', ResultMessage: 'App SecretKey Error' });
    }
    const soap = await soapPost(
      service,
      envelope(ENV_11, postElement(signed, { VideoTitle: 'not mine', SourceFileGetType: '1' })),
      SOAP_11_HEADERS,
    );
    expect(elementText(soap.text, 'ResultCode')).toBe('104');
    expect(elementText(soap.text, 'VideoId') ?? '').toBe('');
  });

  it('still shows 107 once the video has left status 8', async () => {
    const config = client.widgetConfig(await registerVideo(service));
    const boot = jsonBlock<UploadPageBoot>((await getPage(service, pageFor(config))).html, 'upload-boot')!;
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, 2);
    expect((await tusPatch(created.headers.get('location')!, boot.ticket, 0, new Uint8Array(2))).status).toBe(204);
    expect(await pageCode(pageFor(client.widgetConfig(config.videoId)))).toMatch(/^ErrorCode : 107,/);
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, 2)).status).toBe(409);
  });
});

describe('an app with "widgetToken": "scoped"', () => {
  const strict = () => createClient({ baseUrl: service.address, appId: STRICT.appId, appSecret: STRICT.appSecret });

  it('refuses the md5 token on its upload page with 104, and takes the scoped one', async () => {
    const videoId = await registerVideo(service, STRICT.appId);
    expect(await pageCode(pageQuery(service, videoId, {}, STRICT.appId))).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
    expect(await pageCode(pageFor(strict().widgetConfig(videoId)))).toBeUndefined();
  });

  it('still takes the md5 Token on the API, which only its backend signs', async () => {
    await expect(strict().listUserVideos({ createUser: 'anyone' })).resolves.toMatchObject({ AuthMsg: { ResultCode: '1' } });
  });
});

describe('an app with the default "widgetToken": "any"', () => {
  it('opens its pages with the md5 token signed by hand, as the spec has it', async () => {
    expect(await pageCode(pageQuery(service, await registerVideo(service)))).toBeUndefined();
  });
});
