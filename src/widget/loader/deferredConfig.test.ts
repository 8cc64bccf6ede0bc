// @vitest-environment jsdom
// The overlay form is tested in e2e (containers.test.ts): jsdom gives an iframe in a shadow tree no window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import { openUpload } from '../index';

const SERVICE = 'http://service.test';
const SIGNED = { appId: 'app-a', timestamp: '1700000000', token: '0123456789abcdef0123456789abcdef', videoId: 'v-1' };

/** A window as `window.open` returns it: a blank document until the loader points it elsewhere. */
function fakePopup() {
  const popup = {
    closed: false,
    document: document.implementation.createHTMLDocument(''),
    location: { replace: vi.fn() },
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

  it('closes the window and reports reason and code `config` when config() rejects', async () => {
    const popup = fakePopup();
    const onFailure = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const handle = openUpload({ serviceUrl: SERVICE, onFailure, config: () => Promise.reject(new Error('backend down')) });
    await expect(handle.done).rejects.toMatchObject({ name: 'UploadWidgetError', kind: 'failure', code: 'config' });
    expect(popup.close).toHaveBeenCalled();
    expect(onFailure).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ reason: 'config', code: 'config' }));
    expect(popup.location.replace).not.toHaveBeenCalled();
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
