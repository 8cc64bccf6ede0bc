// @vitest-environment jsdom
// The overlay form is tested in e2e (containers.test.ts): jsdom gives an iframe in a shadow tree no window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOADER_WORDS } from '../../shared/i18n/loaderWords';
import { UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import { openUpload } from '../index';

const SERVICE = 'http://service.test';
const SIGNED = { appId: 'app-a', timestamp: '1700000000', token: '0123456789abcdef0123456789abcdef', videoId: 'v-1' };

/** A window as `window.open` returns it: a blank document until the loader points it elsewhere. */
function fakePopup() {
  const popup = {
    closed: false,
    document: document.implementation.createHTMLDocument(''),
    location: { href: 'about:blank', replace: vi.fn() },
    focus: vi.fn(),
    close: vi.fn(() => {
      popup.closed = true;
    }),
    postMessage: vi.fn(),
  };
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  return popup;
}

/** A promise the test settles by hand, as a slow backend would. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('openUpload with an async config', () => {
  it('refuses signed options beside `config`, opening nothing: neither would be sure to win', () => {
    fakePopup();
    const call = { serviceUrl: SERVICE, appId: 'app-b', config: () => Promise.resolve(SIGNED) };
    expect(() => openUpload(call as never)).toThrow(
      new TypeError('openUpload: `appId` comes from `config()` when `config` is given, not from both'),
    );
    expect(window.open).not.toHaveBeenCalled();
  });

  it('opens the popup inside the call with a waiting line, then moves it to the upload page with the signed options', async () => {
    const popup = fakePopup();
    const signed = later<typeof SIGNED>();
    openUpload({ serviceUrl: SERVICE, lang: 'en', config: () => signed.promise });
    expect(window.open).toHaveBeenCalledOnce();
    expect(vi.mocked(window.open).mock.calls[0]![0]).toBe('');
    expect(popup.document.body.textContent).toBe('Preparing the upload…');

    signed.resolve(SIGNED);
    await vi.waitFor(() => expect(popup.location.replace).toHaveBeenCalledOnce());
    const url = new URL(popup.location.replace.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe(SERVICE + UPLOAD_PAGE_PATH);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ ...SIGNED, form: 'popup', lang: 'en' });
    expect(window.open).toHaveBeenCalledOnce();
  });

  it('says so in the window, with a Close button, and reports reason and code `config` at once when config() rejects', async () => {
    const popup = fakePopup();
    const onFailure = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const handle = openUpload({ serviceUrl: SERVICE, lang: 'en', onFailure, config: () => Promise.reject(new Error('backend down')) });
    await expect(handle.done).rejects.toMatchObject({ name: 'UploadWidgetError', kind: 'failure', code: 'config' });
    expect(onFailure).toHaveBeenCalledExactlyOnceWith({
      videoId: '',
      reason: 'config',
      code: 'config',
      message: 'The upload could not be prepared.',
      hint: 'config() rejected: Error: backend down',
    });
    expect(popup.close).not.toHaveBeenCalled();
    const text = popup.document.body.textContent!;
    expect(text).toContain('ErrorCode : config, ErrorMessage : The upload could not be prepared.');
    expect(text).toMatch(/Reference: [0-9a-f]{32}/);
    // The hint is for the developer, not the person.
    expect(text).not.toContain('backend down');
    popup.document.querySelector('button')!.click();
    expect(popup.close).toHaveBeenCalled();
    expect(onFailure).toHaveBeenCalledOnce();
    expect(popup.location.replace).not.toHaveBeenCalled();
  });

  it('dresses the waiting line as the error page: styled, titled, in the language, announced', () => {
    const popup = fakePopup();
    openUpload({ serviceUrl: SERVICE, lang: 'de', config: () => new Promise(() => {}) });
    const doc = popup.document;
    expect([doc.documentElement.lang, doc.title]).toEqual(['de', LOADER_WORDS.de.dialog]);
    expect(doc.head.querySelector('style')!.textContent).toContain('system-ui');
    expect(doc.querySelector('[role="status"]')!.textContent).toBe(LOADER_WORDS.de.configWaiting);
  });

  it('shows the error page in the same window when the delivered options are refused', async () => {
    const popup = fakePopup();
    const onFailure = vi.fn();
    const handle = openUpload({ serviceUrl: SERVICE, onFailure, config: () => Promise.resolve({ ...SIGNED, token: '' }) });
    await expect(handle.done).rejects.toMatchObject({ kind: 'failure', code: '101' });
    await vi.waitFor(() => expect(popup.document.body.textContent).toContain('ErrorCode : 101, ErrorMessage : Missing Parameter: token'));
    expect(popup.location.replace).not.toHaveBeenCalled();
  });

  it('closed before config() answers: done rejects as closed, and the late answer opens nothing', async () => {
    const popup = fakePopup();
    const signed = later<typeof SIGNED>();
    const handle = openUpload({ serviceUrl: SERVICE, config: () => signed.promise });
    handle.close();
    await expect(handle.done).rejects.toMatchObject({ kind: 'closed' });
    signed.resolve(SIGNED);
    await new Promise((wake) => setTimeout(wake, 10));
    expect(popup.location.replace).not.toHaveBeenCalled();
    expect(popup.close).toHaveBeenCalled();
  });

  it('still throws for programmer errors inside the click', () => {
    fakePopup();
    expect(() => openUpload({ serviceUrl: SERVICE, config: () => Promise.resolve(SIGNED), onSuccess: 'yes' as never })).toThrow(
      /`onSuccess` must be a function/,
    );
    expect(window.open).not.toHaveBeenCalled();
  });
});
