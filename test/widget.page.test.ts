import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDir } from '../src/server/media/paths';
import type { PageMessage } from '../src/shared/messages';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import type { ErrorPageData } from '../src/server/widget/pages';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, TEST_APPS, type TestService } from './support/service';
import {
  errorLine,
  CHANNEL,
  getPage,
  HOST_ORIGIN,
  jsonBlock,
  openUploader,
  pageQuery,
  registerVideo,
  tusCreate,
  tusPatch,
} from './uploadHelpers';

const SHOP = 'https://shop.example';
const APPS = [...TEST_APPS, { appId: 'app-c', appSecret: 'secret-of-app-c-0123456789', allowedOrigins: [SHOP] }];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ apps: APPS });
});
afterAll(() => service.stop(true));

async function expectErrorPage(query: URLSearchParams, code: string, message: string, status: number) {
  const page = await getPage(service, query);
  expect(page.status).toBe(status);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(errorLine(page.html)).toBe(`ErrorCode : ${code}, ErrorMessage : ${message}`);
  return page;
}

describe('GET /UploadWidget/Upload: a valid request', () => {
  it('serves the uploader page with its boot data and no secret', async () => {
    const videoId = await registerVideo(service);
    const page = await getPage(service, pageQuery(service, videoId));
    expect(page.status).toBe(200);
    const boot = jsonBlock<UploadPageBoot>(page.html, 'upload-boot')!;
    expect(boot).toMatchObject({
      videoId,
      channel: CHANNEL,
      hostOrigin: HOST_ORIGIN,
      form: 'overlay',
      lang: 'en',
      tusEndpoint: `${service.address}/UploadWidget/files/`,
      maxFileSize: service.context.config.maxUploadBytesFlash,
      uploadChunkBytes: 0,
      resume: null,
    });
    expect(boot.ticket).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(page.html).toContain('<div id="app"></div>');
    // The names are the build's (uploaderAssets.test.ts); the e2e tier loads them.
    expect(page.html).toMatch(/<link rel="stylesheet" href="\/UploadWidget\/assets\/uploader[\w-]*\.css">/);
    expect(page.html).toMatch(/<script type="module" src="\/UploadWidget\/assets\/uploader[\w-]*\.js"><\/script>/);
    for (const app of APPS) expect(page.html).not.toContain(app.appSecret);
  });

  it('sends a strict CSP framing it only into the host origin, and no caching or referrer', async () => {
    const page = await getPage(service, pageQuery(service, await registerVideo(service)));
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain(`frame-ancestors ${HOST_ORIGIN}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it("narrows the limit to the page's maxFileSize, never widens it, and the ticket holds tus to it", async () => {
    const flash = service.context.config.maxUploadBytesFlash;
    const videoId = await registerVideo(service);
    const narrowed = await openUploader(service, videoId, { maxFileSize: '1000', accept: '["mp4","webm"]', maxDuration: '90' });
    expect(narrowed).toMatchObject({ maxFileSize: 1000, limits: { accept: ['mp4', 'webm'], maxDuration: 90 } });
    // The service's own check, for a client that skips the uploader's.
    const over = await tusCreate(narrowed.tusEndpoint, narrowed.ticket, 1001);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toMatchObject({ AuthMsg: { ResultCode: '112' } });
    expect((await tusCreate(narrowed.tusEndpoint, narrowed.ticket, 1000)).status).toBe(201);

    const wider = await openUploader(service, await registerVideo(service), { maxFileSize: String(flash * 2) });
    expect(wider).toMatchObject({ maxFileSize: flash, limits: {} });
  });

  it("preloads the restrictions' checks only for a page that sets any", async () => {
    const limited = await getPage(service, pageQuery(service, await registerVideo(service), { minDuration: '2' }));
    expect(limited.html).toMatch(/<link rel="modulepreload" href="\/UploadWidget\/assets\/limits-[\w-]+\.js">/);
    const plain = await getPage(service, pageQuery(service, await registerVideo(service), { maxFileSize: '1000' }));
    expect(plain.html).not.toContain('limits-');
  });

  it('refuses a restriction it cannot apply with 106, naming it', async () => {
    const videoId = await registerVideo(service);
    await expectErrorPage(
      pageQuery(service, videoId, { accept: 'mp4,gif' }),
      '106',
      'Invalid Parameter: accept must list containers among mp4, mov, m4v, 3gp, webm, mkv, avi, flv, wmv, mpeg, ts, ogg, rm, mxf, dv',
      400,
    );
    await expectErrorPage(
      pageQuery(service, videoId, { minDuration: '20', maxDuration: '10' }),
      '106',
      'Invalid Parameter: minDuration must not be more than maxDuration',
      400,
    );
  });

  it('takes the limit from uploadType and the language from lang or Accept-Language', async () => {
    const videoId = await registerVideo(service);
    const silverlight = jsonBlock<UploadPageBoot>(
      (await getPage(service, pageQuery(service, videoId, { uploadType: 'silverlight', lang: 'zh-CN' }))).html,
      'upload-boot',
    )!;
    expect(silverlight.maxFileSize).toBe(service.context.config.maxUploadBytesSilverlight);
    expect(silverlight.lang).toBe('zh-CN');
    const res = await fetch(`${service.address}/UploadWidget/Upload?${pageQuery(service, videoId, { uploadType: undefined })}`, {
      headers: { 'Accept-Language': 'zh-TW,zh;q=0.9,en;q=0.5' },
    });
    const byBrowser = jsonBlock<UploadPageBoot>(await res.text(), 'upload-boot')!;
    expect(byBrowser.lang).toBe('zh-TW');
    expect(byBrowser.maxFileSize).toBe(service.context.config.maxUploadBytesFlash);
    for (const [acceptLanguage, lang] of [
      ['zh-HK', 'zh-TW'],
      ['zh-Hant-TW,zh;q=0.8', 'zh-TW'],
      ['zh-Hans-CN', 'zh-CN'],
      ['zh', 'zh-CN'],
      ['fr-FR,zh;q=0.5', 'fr'],
      ['it-IT,zh;q=0.5', 'it'],
      ['kok-IN,zh;q=0.5', 'en'],
    ]) {
      const page = await getPage(service, pageQuery(service, videoId), { 'Accept-Language': acceptLanguage! });
      expect(jsonBlock<UploadPageBoot>(page.html, 'upload-boot')!.lang, acceptLanguage).toBe(lang);
    }
  });

  it('hands the sources and uploadWhileRecording to the uploader (the file choice alone by default), and refuses unknown sources with 106', async () => {
    const videoId = await registerVideo(service);
    const boot = async (overrides: Record<string, string>) =>
      jsonBlock<UploadPageBoot>((await getPage(service, pageQuery(service, videoId, overrides))).html, 'upload-boot')!;
    const plain = await boot({});
    expect(plain).toMatchObject({ sources: ['file'], uploadWhileRecording: false });
    // The recorder's words come with the boot data of a page that records, in its language, the `strings` option's first.
    expect(plain.strings).not.toHaveProperty('recordCamera');
    const recording = await boot({
      sources: '["file","camera","screen"]',
      uploadWhileRecording: 'true',
      lang: 'de',
      strings: JSON.stringify({ retake: 'Noch mal' }),
    });
    expect(recording).toMatchObject({ sources: ['file', 'camera', 'screen'], uploadWhileRecording: true });
    expect(recording.strings).toMatchObject({ recordCamera: 'Mit der Kamera aufnehmen', retake: 'Noch mal' });
    const expected = 'Invalid Parameter: sources must be a list of "file", "camera", "screen"';
    await expectErrorPage(pageQuery(service, videoId, { sources: '["microphone"]' }), '106', expected, 400);
    await expectErrorPage(pageQuery(service, videoId, { sources: '[]' }), '106', expected, 400);
    await expectErrorPage(pageQuery(service, videoId, { sources: 'camera' }), '106', expected, 400);
    await expectErrorPage(
      pageQuery(service, videoId, { sources: '["camera","camera"]' }),
      '106',
      'Invalid Parameter: sources names a source twice',
      400,
    );
    await expectErrorPage(
      pageQuery(service, videoId, { uploadWhileRecording: 'yes' }),
      '106',
      'Invalid Parameter: uploadWhileRecording must be one of true, false',
      400,
    );
  });

  it("hands the host's look (theme, accentColor, radius) to the uploader, and refuses a malformed one with 106", async () => {
    const videoId = await registerVideo(service);
    const plain = jsonBlock<UploadPageBoot>((await getPage(service, pageQuery(service, videoId))).html, 'upload-boot')!;
    expect(plain.look).toEqual({ theme: 'auto' });
    const styled = jsonBlock<UploadPageBoot>(
      (await getPage(service, pageQuery(service, videoId, { theme: 'dark', accentColor: '#0F766E', radius: '4px' }))).html,
      'upload-boot',
    )!;
    expect(styled.look).toEqual({ theme: 'dark', accentColor: '#0F766E', radius: '4px' });
    await expectErrorPage(
      pageQuery(service, videoId, { accentColor: 'red;background:url(x)' }),
      '106',
      'Invalid Parameter: accentColor must be a hex colour such as "#2563eb"',
      400,
    );
    await expectErrorPage(
      pageQuery(service, videoId, { radius: '-2px' }),
      '106',
      'Invalid Parameter: radius must be a CSS length such as "120px" or "10%"',
      400,
    );
    const page = await expectErrorPage(
      pageQuery(service, videoId, { theme: 'dark', radius: 'big' }),
      '106',
      'Invalid Parameter: radius must be a CSS length such as "120px" or "10%"',
      400,
    );
    expect(page.html).toContain('<html lang="en" data-theme="dark">');
  });

  it('with allowedOrigins, posts to and is framed by the registered origin the loader reports', async () => {
    const videoId = await registerVideo(service, 'app-c');
    const page = await getPage(service, pageQuery(service, videoId, { origin: SHOP }, 'app-c'));
    expect(jsonBlock<UploadPageBoot>(page.html, 'upload-boot')!.hostOrigin).toBe(SHOP);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${SHOP}`);
  });
});

describe('GET /UploadWidget/Upload: the error page', () => {
  it('shows exactly "ErrorCode : 104, ErrorMessage : App SecretKey Error" for a bad token', async () => {
    const videoId = await registerVideo(service);
    const page = await expectErrorPage(pageQuery(service, videoId, { token: '0'.repeat(32) }), '104', 'App SecretKey Error', 401);
    expect(jsonBlock(page.html, 'upload-boot')).toBeUndefined();
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it("is a page worth reading: a heading, the line kept whole, what to do, the uploader's stylesheet and language", async () => {
    const videoId = await registerVideo(service);
    const badToken = { token: '0'.repeat(32) };
    const en = await getPage(service, pageQuery(service, videoId, badToken));
    expect(en.html).toContain('<html lang="en">');
    expect(en.html).toContain('<h1>The upload cannot start</h1>');
    expect(en.html).toContain('<p class="error-line">ErrorCode : 104, ErrorMessage : App SecretKey Error</p>');
    expect(en.html).toContain('The site owner should check its AppSecret');
    expect(en.html).toMatch(/<link rel="stylesheet" href="\/UploadWidget\/assets\/uploader-[\w-]+\.css">/);
    expect(en.headers.get('content-security-policy')).toContain("style-src 'self'");

    const chosen = await getPage(service, pageQuery(service, videoId, { ...badToken, lang: 'zh-CN' }));
    expect(chosen.html).toContain('<html lang="zh-CN">');
    expect(chosen.html).toContain('<h1>无法开始上传</h1>');
    expect(errorLine(chosen.html)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
    const browser = await getPage(service, pageQuery(service, videoId, badToken), { 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.5' });
    expect(browser.html).toContain('<html lang="zh-CN">');
    // A language we do not speak is itself the error; the page then speaks the browser's.
    const unknown = await getPage(service, pageQuery(service, videoId, { lang: 'tlh' }), { 'Accept-Language': 'en-GB' });
    expect(unknown.html).toContain('<html lang="en">');
    expect(errorLine(unknown.html)).toMatch(/^ErrorCode : 106, /);
  });

  it('tells the host through its channel, at its origin, why the upload cannot start', async () => {
    const videoId = await registerVideo(service);
    const page = await getPage(service, pageQuery(service, videoId, { token: '0'.repeat(32) }));
    const data = jsonBlock<ErrorPageData>(page.html, 'upload-error')!;
    expect(data.targetOrigin).toBe(HOST_ORIGIN);
    expect(data.messages.at(-1)).toEqual({
      protocol: 'open-upload/1',
      channel: CHANNEL,
      type: 'failure',
      info: { videoId, reason: 'validation', code: '104', message: 'App SecretKey Error', requestId: page.headers.get('x-request-id')! },
    } satisfies PageMessage);
    expect(page.html).toContain('<script src="/UploadWidget/assets/error.js" defer></script>');
    const script = await fetch(`${service.address}/UploadWidget/assets/error.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('postMessage(data.messages[i], data.targetOrigin)');
  });

  it('refuses a timestamp more than 600 seconds old (103)', async () => {
    const videoId = await registerVideo(service);
    const stale = service.auth('app-a', Date.now() - 601_000);
    await expectErrorPage(
      pageQuery(service, videoId, { timestamp: stale.Timestamp, token: stale.Token }),
      '103',
      'Timestamp Expired: more than 600 seconds from the server time',
      401,
    );
  });

  it("refuses an unknown app (102), an unknown video and another app's video alike (105)", async () => {
    const videoId = await registerVideo(service);
    await expectErrorPage(pageQuery(service, videoId, { appId: 'nobody' }), '102', 'AppId Not Exist', 401);
    await expectErrorPage(pageQuery(service, 'no-such-video'), '105', 'Video Not Exist', 404);
    const othersVideo = await registerVideo(service, 'app-b');
    await expectErrorPage(pageQuery(service, othersVideo), '105', 'Video Not Exist', 404);
  });

  it('refuses a video that already has its file or is downloaded by the server (107)', async () => {
    const uploaded = await registerVideo(service);
    await service.context.stores.videos.transition(uploaded, [VideoStatus.NotUploaded], VideoStatus.WaitingForTranscoding, '', Date.now());
    await expectErrorPage(pageQuery(service, uploaded), '107', 'Video Status Error: the video already has its file', 409);
    const downloaded = await registerVideo(service, 'app-a', 2);
    const page = await getPage(service, pageQuery(service, downloaded));
    expect(page.status).toBe(409);
    expect(errorLine(page.html)).toMatch(/^ErrorCode : 107, ErrorMessage : Video Status Error: /);
  });

  it('names a missing option (101) and a wrong one (106)', async () => {
    const videoId = await registerVideo(service);
    await expectErrorPage(pageQuery(service, videoId, { videoId: undefined }), '101', 'Missing Parameter: videoId', 400);
    await expectErrorPage(pageQuery(service, videoId, { token: undefined }), '101', 'Missing Parameter: token', 400);
    await expectErrorPage(pageQuery(service, videoId, { channel: undefined }), '101', 'Missing Parameter: channel', 400);
    await expectErrorPage(
      pageQuery(service, videoId, { uploadType: 'html5' }),
      '106',
      'Invalid Parameter: uploadType must be one of flash, silverlight',
      400,
    );
    await expectErrorPage(
      pageQuery(service, videoId, { needHandleSepcial: 'yes' }),
      '106',
      'Invalid Parameter: needHandleSepcial must be one of true, false',
      400,
    );
    await expectErrorPage(
      pageQuery(service, videoId, { origin: 'javascript:alert(1)' }),
      '106',
      'Invalid Parameter: origin must be an http(s) origin like https://example.com',
      400,
    );
  });

  it.each(['http://x;sandbox', 'http://x"y', "http://x'y", 'http://a,b', 'http://user:pw@x', 'http://x/path'])(
    'refuses the origin %s, which would write into the CSP header (106)',
    async (origin) => {
      const page = await expectErrorPage(
        pageQuery(service, await registerVideo(service), { origin }),
        '106',
        'Invalid Parameter: origin must be an http(s) origin like https://example.com',
        400,
      );
      expect(page.headers.get('content-security-policy') ?? '').not.toContain('sandbox');
    },
  );

  it.each(['http://localhost:5999', 'https://shop.example.com', 'http://10.0.0.7', 'http://[::1]:8080', 'http://xn--fsq.example'])(
    'accepts the origin %s',
    async (origin) => {
      expect((await getPage(service, pageQuery(service, await registerVideo(service), { origin }))).status).toBe(200);
    },
  );

  it('shows the error page (500), not JSON, when the service itself fails', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, 10);
    // The video's media folder is a file, so storing the finished upload fails with a disk error.
    mkdirSync(dirname(mediaDir(service.dataDir, videoId)), { recursive: true });
    writeFileSync(mediaDir(service.dataDir, videoId), 'not a folder');
    await tusPatch(created.headers.get('location')!, boot.ticket, 0, new Uint8Array(10));
    await expectErrorPage(pageQuery(service, videoId), '500', 'Internal Error', 500);
  });

  it("refuses a host origin outside the app's allowedOrigins (108) and tells it only the code, the table's message and the reference", async () => {
    const videoId = await registerVideo(service, 'app-c');
    const page = await expectErrorPage(
      pageQuery(service, videoId, { strings: JSON.stringify({ close: 'Stranger words' }) }, 'app-c'),
      '108',
      "No Permission: the page is not on one of the app's allowedOrigins",
      403,
    );
    const data = jsonBlock<ErrorPageData>(page.html, 'upload-error')!;
    // Delivered by the browser only if the window that opened or framed the page is of this origin.
    expect(data.targetOrigin).toBe(HOST_ORIGIN);
    const hint = `${HOST_ORIGIN} is not one of the app's allowedOrigins: add it there to open the widget from this page`;
    expect(data.hint).toBe(hint);
    expect(data.messages.at(-1)).toEqual({
      protocol: 'open-upload/1',
      channel: CHANNEL,
      type: 'failure',
      info: { videoId, reason: 'validation', code: '108', message: 'No Permission', requestId: page.headers.get('x-request-id')!, hint },
    } satisfies PageMessage);
    // The app's words are not a stranger's to show.
    expect(page.html).not.toContain('Stranger words');
  });

  it('echoes hostile values only escaped', async () => {
    const hostile = '</script><script>alert(1)</script><!--';
    const page = await getPage(service, pageQuery(service, hostile, { channel: '"><img src=x onerror=alert(1)>' }));
    expect(page.status).toBe(400);
    expect(page.html).not.toContain('<img');
    expect(page.html).not.toContain('<script>alert');
    const reported = await getPage(service, pageQuery(service, hostile));
    expect(reported.html).not.toContain('<script>alert');
    expect(reported.html).not.toContain('<!--');
    const data = jsonBlock<ErrorPageData>(reported.html, 'upload-error')!;
    expect(data.messages.at(-1)).toMatchObject({ type: 'failure', info: { videoId: hostile, code: '105' } });
  });
});
