import { describe, expect, it } from 'vitest';
import { decodePageOptions, uploadPageUrl, UPLOAD_PAGE_PATH } from './uploadPage';
import { PAGE_OPTIONS, type PageOption } from './widgetConfig';

const byOption = Object.fromEntries(PAGE_OPTIONS.map((name) => [name, true])) as Record<PageOption, unknown>;
const signed = { appId: 'app', timestamp: '1700000000', token: 'a'.repeat(32), videoId: 'v-1' };

function decode(url: string) {
  const query = new URL(url).searchParams;
  return decodePageOptions((name) => query.get(name) ?? undefined);
}

describe('the upload page query, written by the loader and read by the service', () => {
  it('carries the options both ways, defaults applied and an absent lang left absent', () => {
    const look = { theme: 'dark', accentColor: '#0f766e', radius: '4px' } as const;
    const strings = { choose: 'Pick your <b>clip</b>', uploading: 'Sending “{name}”' };
    const url = uploadPageUrl(
      'https://video.example',
      { ...signed, uploadType: 'silverlight', needHandleSepcial: true, lang: 'zh-TW', ...look, strings },
      byOption,
      'chan-0001',
      'https://app.example',
      'overlay',
    );
    expect(url.startsWith(`https://video.example${UPLOAD_PAGE_PATH}?`)).toBe(true);
    expect(decode(url)).toEqual({
      ok: true,
      options: { uploadType: 'silverlight', needHandleSepcial: true, lang: 'zh-TW', form: 'overlay', look, strings },
    });

    const plain = uploadPageUrl(
      'https://video.example',
      { ...signed, lang: undefined },
      byOption,
      'chan-0001',
      'https://app.example',
      'popup',
    );
    expect(new URL(plain).searchParams.has('lang')).toBe(false);
    expect(decode(plain)).toEqual({
      ok: true,
      options: {
        uploadType: 'flash',
        needHandleSepcial: false,
        lang: undefined,
        form: 'popup',
        look: { theme: 'auto', accentColor: undefined, radius: undefined },
        strings: {},
      },
    });
  });

  it('refuses a value outside its list (106) and a missing form (101)', () => {
    const query = (values: Record<string, string>) => (name: string) => values[name];
    expect(decodePageOptions(query({ uploadType: 'html5', form: 'popup' }))).toEqual({
      ok: false,
      problem: { code: '106', detail: 'uploadType must be one of flash, silverlight' },
    });
    expect(decodePageOptions(query({ needHandleSepcial: 'yes', form: 'popup' }))).toMatchObject({ ok: false, problem: { code: '106' } });
    expect(decodePageOptions(() => undefined)).toEqual({ ok: false, problem: { code: '101', detail: 'form' } });
  });
});
