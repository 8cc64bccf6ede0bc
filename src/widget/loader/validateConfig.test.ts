import { describe, expect, it } from 'vitest';
import { WIDGET_LANGUAGES } from '../../shared/widgetConfig';
import { PAGE_OPTIONS } from '../../shared/widgetOptions';
import { OVERLAY_RULES, RULES } from './optionRules';
import { checkConfig } from './validateConfig';

const AUTH = { appId: 'app-a', timestamp: '1700000000', token: '0123456789abcdef0123456789abcdef', videoId: 'v-1' };

describe('checkConfig: programmer errors throw', () => {
  it.each([
    [null, 'null'],
    ['appId=1', '"appId=1"'],
    [42, 'a number'],
    [[AUTH], 'a list'],
  ])('refuses %j as the configuration', (raw, described) => {
    expect(() => checkConfig(raw, 'popup')).toThrow(new TypeError(`openUpload: expected a configuration object, got ${described}`));
  });

  it('names an unknown option, so a typo (needHandleSpecial) is not silently ignored', () => {
    expect(() => checkConfig({ ...AUTH, needHandleSpecial: true }, 'popup')).toThrow(
      new TypeError('openUpload: unknown option `needHandleSpecial`'),
    );
  });

  it.each(['left', 'top', 'isTop'])('refuses the overlay option `%s` in the popup form', (key) => {
    expect(() => checkConfig({ ...AUTH, [key]: key === 'isTop' ? true : '10px' }, 'popup')).toThrow(
      new TypeError(`openUpload: \`${key}\` is an option of the overlay form only`),
    );
  });

  it('refuses a handler that is not a function', () => {
    expect(() => checkConfig({ ...AUTH, onSuccess: 'done()' }, 'overlay', OVERLAY_RULES)).toThrow(
      new TypeError('openUpload: `onSuccess` must be a function, got "done()"'),
    );
  });
});

describe('checkConfig: parameter problems become the error page', () => {
  it('refuses `strings` too long for the page address (the service checks the texts themselves)', () => {
    const check = checkConfig({ ...AUTH, strings: { title: '“'.repeat(1000) } }, 'popup');
    expect(check).toMatchObject({
      ok: false,
      problem: {
        code: '106',
        message: expect.stringMatching(/^Invalid Parameter: strings must be at most 8000 bytes as URL-encoded JSON, got /),
      },
    });
    expect(checkConfig({ ...AUTH, strings: { title: 'Send a clip' } }, 'popup')).toMatchObject({
      ok: true,
      config: { strings: { title: 'Send a clip' } },
    });
  });

  it.each([
    [{ ...AUTH, appId: undefined }, '101', 'Missing Parameter: appId'],
    [{ ...AUTH, token: '   ' }, '101', 'Missing Parameter: token'],
    [{ ...AUTH, videoId: null }, '101', 'Missing Parameter: videoId'],
    [{ ...AUTH, timestamp: 1700000000 }, '106', 'Invalid Parameter: timestamp must be a string, got a number'],
    [{ ...AUTH, uploadType: 'html5' }, '106', 'Invalid Parameter: uploadType must be "flash" or "silverlight", got "html5"'],
    [{ ...AUTH, needHandleSepcial: 'true' }, '106', 'Invalid Parameter: needHandleSepcial must be true or false, got "true"'],
    [
      { ...AUTH, lang: 'tlh' },
      '106',
      `Invalid Parameter: lang must be ${WIDGET_LANGUAGES.map((lang) => `"${lang}"`).join(' or ')}, got "tlh"`,
    ],
    // The look's values are the service's to check (test/widget.page.test.ts); the loader wants strings.
    [{ ...AUTH, theme: true }, '106', 'Invalid Parameter: theme must be a string, got a boolean'],
    [{ ...AUTH, accentColor: 0x2563eb }, '106', 'Invalid Parameter: accentColor must be a string, got a number'],
    [{ ...AUTH, uploadWhileRecording: 'yes' }, '106', 'Invalid Parameter: uploadWhileRecording must be true or false, got "yes"'],
    [{ ...AUTH, isTop: 1 }, '106', 'Invalid Parameter: isTop must be true or false, got a number'],
    [{ ...AUTH, left: 120 }, '106', 'Invalid Parameter: left must be a CSS length such as "120px" or "10%", got a number'],
    [{ ...AUTH, top: '-5px' }, '106', 'Invalid Parameter: top must be a CSS length such as "120px" or "10%", got "-5px"'],
    [{ ...AUTH, top: 'calc(1px)' }, '106', 'Invalid Parameter: top must be a CSS length such as "120px" or "10%", got "calc(1px)"'],
  ])('%j gives %s', (raw, code, message) => {
    const check = checkConfig(raw, 'overlay', OVERLAY_RULES);
    expect(check).toMatchObject({ ok: false, problem: { code, message } });
  });

  it('reports the first problem in the order of the spec table', () => {
    expect(checkConfig({ appId: 5, uploadType: 'x' }, 'popup')).toMatchObject({
      ok: false,
      problem: { code: '106', message: 'Invalid Parameter: appId must be a string, got a number' },
    });
  });

  it('keeps the handlers and the videoId so the failure can be reported', () => {
    const onFailure = () => {};
    const check = checkConfig({ ...AUTH, token: undefined, onFailure }, 'popup');
    expect(check).toMatchObject({ ok: false, videoId: 'v-1', handlers: { onFailure } });
  });
});

describe('checkConfig: valid configurations', () => {
  it('applies the documented defaults, and leaves the other options absent (isTop true is applied where the layer opens)', () => {
    expect(checkConfig(AUTH, 'popup')).toEqual({
      ok: true,
      handlers: expect.any(Object),
      videoId: AUTH.videoId,
      config: { ...AUTH, uploadType: 'flash', needHandleSepcial: false },
    });
  });

  it('passes the restrictions on as given: the service checks their values (106 on its error page)', () => {
    const restrictions = { maxFileSize: 5e6, accept: ['mp4', 'webm'], minDuration: 2, maxDuration: 90.5 };
    expect(checkConfig({ ...AUTH, ...restrictions }, 'popup')).toMatchObject({ ok: true, config: restrictions });
    expect(checkConfig({ ...AUTH, accept: 'mp4 mov', maxFileSize: 'big' }, 'popup')).toMatchObject({
      ok: true,
      config: { accept: 'mp4 mov', maxFileSize: 'big' },
    });
  });

  it('takes every option of the overlay form', () => {
    const look = { theme: 'dark', accentColor: '#0f766e', radius: '4px' };
    const options = {
      uploadType: 'silverlight',
      needHandleSepcial: true,
      lang: 'zh-TW',
      ...look,
      sources: ['file', 'camera'],
      uploadWhileRecording: true,
      top: '0',
      isTop: false,
    };
    const check = checkConfig({ ...AUTH, ...options, left: ' 10% ' }, 'overlay', OVERLAY_RULES);
    expect(check).toMatchObject({ ok: true, config: { ...options, left: '10%' } });
  });

  it.each([
    ['the md5 token (32 hex)', '0123456789abcdef0123456789abcdef'],
    ['the scoped widget token (64 hex)', 'bde440e5103aec0d716b5458b3b799bdfd599bea9faa31127163cbec62b48cb6'],
  ])('passes %s on to the service', (_name, token) => {
    expect(checkConfig({ ...AUTH, token }, 'popup')).toMatchObject({ ok: true, config: { token } });
  });

  it.each(['120px', '10%', '2.5em', '.5rem', '30vh', '0'])('accepts the CSS length %s', (left) => {
    expect(checkConfig({ ...AUTH, left }, 'overlay', OVERLAY_RULES).ok).toBe(true);
  });
});

describe("the loader's rules", () => {
  it('name exactly the shared page options, in their order (the first problem is the one the service reports)', () => {
    expect(Object.keys(RULES)).toEqual([...PAGE_OPTIONS]);
  });
});
