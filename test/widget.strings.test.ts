/**
 * The `strings` option and the languages on the service's pages: the upload page hands
 * the uploader the checked texts and preloads only its language's chunk; a bad `strings` is a 106
 * error page that names the problem; the error page uses the texts, escaped, only for a trusted host;
 * Arabic, Hebrew and Persian pages are right to left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { errorLine, getPage, jsonBlock, pageQuery, registerVideo } from './uploadHelpers';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

const strings = (value: unknown) => ({ strings: JSON.stringify(value) });

describe('the upload page', () => {
  it("carries the checked texts and preloads its own language's texts only, right to left for Arabic", async () => {
    const page = await getPage(
      service,
      pageQuery(service, await registerVideo(service), { lang: 'ar', ...strings({ choose: 'اختر مقطعك' }) }),
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="ar" dir="rtl">');
    expect(jsonBlock<UploadPageBoot>(page.html, 'upload-boot')).toMatchObject({ lang: 'ar', strings: { choose: 'اختر مقطعك' } });
    const preloads = [...page.html.matchAll(/<link rel="modulepreload" href="\/UploadWidget\/assets\/([^"]+)">/g)].map((match) => match[1]);
    expect(preloads).toEqual([expect.stringMatching(/^ar-[\w-]+\.js$/)]);
    const chunk = await fetch(`${service.address}/UploadWidget/assets/${preloads[0]}`);
    expect(chunk.status).toBe(200);
    expect(await chunk.text()).toContain('اختر ملف فيديو');
  });

  it.each([
    ['he', 'בחירת קובץ וידאו', ' dir="rtl"'],
    ['fa', 'یک فایل ویدیویی انتخاب کنید', ' dir="rtl"'],
    ['sv', 'Välj en videofil', ''],
  ])('speaks %s, in its own direction', async (lang, choose, dir) => {
    const page = await getPage(service, pageQuery(service, await registerVideo(service), { lang }));
    expect(page.html).toContain(`<html lang="${lang}"${dir}>`);
    const preloads = [...page.html.matchAll(/<link rel="modulepreload" href="\/UploadWidget\/assets\/([^"]+)">/g)].map((match) => match[1]);
    expect(await (await fetch(`${service.address}/UploadWidget/assets/${preloads[0]}`)).text()).toContain(choose);
  });

  it.each([
    [{ chose: 'Pick' }, 'strings.chose is not a text key (docs/widget.md lists them)'],
    [{ choose: ['Pick'] }, 'strings.choose must be a string, got a list'],
    [{ choose: 'x'.repeat(501) }, 'strings.choose must be at most 500 characters, got 501'],
    [{ uploading: 'Sending {file}' }, 'strings.uploading has the placeholder {file}; its placeholders are {name}'],
    ['choose', 'strings must be an object of texts by key, got a string'],
  ])('refuses %j with 106 and says why', async (value, detail) => {
    const page = await getPage(service, pageQuery(service, await registerVideo(service), strings(value)));
    expect(page.status).toBe(400);
    expect(errorLine(page.html)).toBe(`ErrorCode : 106, ErrorMessage : Invalid Parameter: ${detail}`);
  });
});

describe('the error page', () => {
  const badToken = { token: '0123456789abcdef0123456789abcdef' };

  it('shows the texts, escaped, when it reports to a trusted host, and never changes the ErrorCode line', async () => {
    const videoId = await registerVideo(service);
    const page = await getPage(
      service,
      pageQuery(service, videoId, { ...badToken, ...strings({ errorHeading: '<b>Oops</b>', advice104: 'Ask the shop.' }) }),
    );
    expect(page.html).toContain('<h1>&#60;b&#62;Oops&#60;/b&#62;</h1>');
    expect(page.html).toContain('<p class="hint">Ask the shop.</p>');
    expect(page.html).not.toContain('<b>Oops</b>');
    expect(errorLine(page.html)).toBe('ErrorCode : 104, ErrorMessage : App SecretKey Error');
  });

  it('keeps its own texts for a link that reports to nobody', async () => {
    const query = pageQuery(service, await registerVideo(service), {
      ...badToken,
      channel: undefined,
      ...strings({ errorHeading: 'Call 555-0100 now' }),
    });
    const page = await getPage(service, query);
    expect(page.html).not.toContain('555-0100');
    expect(page.html).toContain('<h1>The upload cannot start</h1>');
  });

  it('speaks Arabic right to left', async () => {
    const page = await getPage(service, pageQuery(service, await registerVideo(service), { ...badToken, lang: 'ar' }));
    expect(page.html).toContain('<html lang="ar" dir="rtl">');
    expect(page.html).toContain('<h1>تعذّر بدء الرفع</h1>');
  });
});
