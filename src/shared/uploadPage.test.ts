import { describe, expect, it } from 'vitest';
import { decodePageOptions, uploadPageUrl, UPLOAD_PAGE_PATH } from './uploadPage';
import { PAGE_OPTIONS, type PageOption } from './widgetOptions';

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
      {
        ...signed,
        uploadType: 'silverlight',
        needHandleSepcial: true,
        lang: 'zh-TW',
        ...look,
        strings,
        sources: ['camera', 'file'],
        uploadWhileRecording: true,
      },
      byOption,
      'chan-0001',
      'https://app.example',
      'overlay',
    );
    expect(url.startsWith(`https://video.example${UPLOAD_PAGE_PATH}?`)).toBe(true);
    expect(decode(url)).toEqual({
      ok: true,
      options: {
        uploadType: 'silverlight',
        needHandleSepcial: true,
        lang: 'zh-TW',
        form: 'overlay',
        look,
        strings,
        sources: ['camera', 'file'],
        uploadWhileRecording: true,
        restrictions: {},
      },
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
        restrictions: {},
        sources: ['file'],
        uploadWhileRecording: false,
      },
    });
  });

  it('carries the restrictions: numbers as written, `accept` as JSON', () => {
    const restrictions = { maxFileSize: 5e6, accept: ['mp4', 'mov'], minDuration: 2.5, maxDuration: 600 } as const;
    const url = uploadPageUrl(
      'https://video.example',
      { ...signed, ...restrictions },
      byOption,
      'chan-0001',
      'https://app.example',
      'popup',
    );
    expect(new URL(url).searchParams.get('accept')).toBe('["mp4","mov"]');
    expect(decode(url)).toMatchObject({ ok: true, options: { restrictions } });
  });
});

describe("the service's check of the restrictions", () => {
  const restrictionsOf = (values: Record<string, string>) =>
    decodePageOptions((name) => (({ form: 'popup', ...values }) as Record<string, string>)[name]);

  it.each([
    [{ accept: 'mp4, MOV webm' }, { accept: ['mp4', 'mov', 'webm'] }],
    [{ accept: '["webm","webm"]' }, { accept: ['webm'] }],
    [
      { maxFileSize: '1048576', minDuration: '0', maxDuration: '.5' },
      { maxFileSize: 1048576, minDuration: 0, maxDuration: 0.5 },
    ],
    [
      { minDuration: '30', maxDuration: '30' },
      { minDuration: 30, maxDuration: 30 },
    ],
  ])('reads %j (an attribute may list the containers with spaces or commas)', (values, restrictions) => {
    expect(restrictionsOf(values)).toEqual({ ok: true, options: expect.objectContaining({ restrictions }) });
  });

  it.each([
    [{ maxFileSize: '0' }, 'maxFileSize must be a whole number of bytes, 1 or more'],
    [{ maxFileSize: '1.5' }, 'maxFileSize must be a whole number of bytes, 1 or more'],
    [{ maxFileSize: '1e+21' }, 'maxFileSize must be a whole number of bytes, 1 or more'],
    [{ maxFileSize: '99999999999999999' }, 'maxFileSize must be a whole number of bytes, 1 or more'],
    [
      { accept: '["mp4","gif"]' },
      'accept must list containers among mp4, mov, m4v, 3gp, webm, mkv, avi, flv, wmv, mpeg, ts, ogg, rm, mxf, dv',
    ],
    [{ accept: '[]' }, 'accept must list containers among mp4, mov, m4v, 3gp, webm, mkv, avi, flv, wmv, mpeg, ts, ogg, rm, mxf, dv'],
    [{ accept: '[1]' }, 'accept must list containers among mp4, mov, m4v, 3gp, webm, mkv, avi, flv, wmv, mpeg, ts, ogg, rm, mxf, dv'],
    [{ minDuration: '-1' }, 'minDuration must be a number of seconds, 0 or more'],
    [{ maxDuration: '0' }, 'maxDuration must be a number of seconds, more than 0'],
    [{ maxDuration: 'ten' }, 'maxDuration must be a number of seconds, more than 0'],
    [{ minDuration: '60', maxDuration: '30' }, 'minDuration must not be more than maxDuration'],
  ])('refuses %j (106): %s', (values, detail) => {
    expect(restrictionsOf(values)).toEqual({ ok: false, problem: { kind: 'INVALID_PARAMETER', detail } });
  });

  // The loader checks in the table's order too (validateConfig.ts): both name the same problem first.
  it('reports the first problem in the options table’s order', () => {
    const query = { uploadWhileRecording: 'yes', sources: '[]', strings: '{"chose":"x"}', radius: '-1px', lang: 'tlh', form: 'popup' };
    const first = (values: Record<string, string>) => {
      const decoded = decodePageOptions((name) => values[name]);
      return decoded.ok ? undefined : decoded.problem.detail.split(' ')[0];
    };
    expect(first(query)).toBe('lang');
    expect(first({ ...query, lang: 'ja' })).toBe('radius');
    expect(first({ ...query, lang: 'ja', radius: '4px' })).toMatch(/^strings/);
    expect(first({ ...query, lang: 'ja', radius: '4px', strings: '{}' })).toBe('sources');
  });

  it('refuses a value outside its list (106) and a missing form (101)', () => {
    const query = (values: Record<string, string>) => (name: string) => values[name];
    expect(decodePageOptions(query({ uploadType: 'html5', form: 'popup' }))).toEqual({
      ok: false,
      problem: { kind: 'INVALID_PARAMETER', detail: 'uploadType must be one of flash, silverlight' },
    });
    expect(decodePageOptions(query({ needHandleSepcial: 'yes', form: 'popup' }))).toMatchObject({
      ok: false,
      problem: { kind: 'INVALID_PARAMETER' },
    });
    expect(decodePageOptions(() => undefined)).toEqual({ ok: false, problem: { kind: 'MISSING_PARAMETER', detail: 'form' } });
  });
});
