// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostMessage, pageMessage, type PageMessage, type WithoutEnvelope } from '../../shared/messages';
import { LOADER_WORDS } from '../../shared/i18n/loaderWords';
import { languageOf } from '../../shared/widgetConfig';
import { UPLOAD_PAGE_PATH } from '../../shared/uploadPage';
import * as errorPage from './errorPage';
import { openWidget, type WidgetTarget } from './openUpload';
import * as overlay from './overlay';
import { OVERLAY_RULES } from './optionRules';
import { openPopup } from './popup';
import { loaderTexts } from './texts';

const SERVICE = 'http://service.test';
/** Every part at hand, as the npm module has them; the script loaders' own are tested in e2e. */
const PARTS: Omit<WidgetTarget, 'serviceBase' | 'form'> = {
  popup: openPopup,
  overlay: overlay.openOverlay,
  overlayRules: OVERLAY_RULES,
  texts: (tag, strings) => loaderTexts(LOADER_WORDS[languageOf(tag)], languageOf(tag), strings),
  part: ((name: 'overlay' | 'errorPage') => Promise.resolve({ overlay, errorPage }[name])) as unknown as WidgetTarget['part'],
};
const AUTH = { appId: 'app-a', timestamp: '1700000000', token: '0123456789abcdef0123456789abcdef', videoId: 'v-1' };

/**
 * jsdom gives an iframe inside a shadow tree no window, so page messages are played through the
 * popup form (a fake window); the overlay's own behaviour is tested on its nodes, through the
 * shadow roots the widget attached.
 */
let shadowRoots: ShadowRoot[] = [];
beforeEach(() => {
  shadowRoots = [];
  const attach = HTMLElement.prototype.attachShadow;
  vi.spyOn(HTMLElement.prototype, 'attachShadow').mockImplementation(function (this: HTMLElement, init) {
    const root = attach.call(this, init);
    shadowRoots.push(root);
    return root;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.body.replaceChildren();
});

function overlayParts() {
  const root = shadowRoots.at(-1)!;
  const frame = root.querySelector('iframe')!;
  return {
    root,
    frame,
    closeButton: root.querySelector<HTMLButtonElement>('button[aria-label="Close"]')!,
    query: new URL(frame.src).searchParams,
  };
}

function fromPage(source: Window | null, message: WithoutEnvelope<PageMessage>, channel: string, origin = SERVICE) {
  window.dispatchEvent(new MessageEvent('message', { data: pageMessage(channel, message), origin, source }));
}

function handlers() {
  return { onSuccess: vi.fn(), onFailure: vi.fn(), onError: vi.fn() };
}

describe("the script loaders' words", () => {
  it("are asked of the service by the configured language, else by the browser's tag as it is", async () => {
    vi.spyOn(window.navigator, 'language', 'get').mockReturnValue('fr-CA');
    const asked: string[] = [];
    // As the service answers `texts-fr-CA` (widgetRoutes.ts): with the words of French.
    const part = ((name: string) => {
      if (name === 'overlay') return Promise.resolve(overlay);
      asked.push(name);
      return Promise.resolve({ texts: (strings: unknown) => loaderTexts(LOADER_WORDS.fr, 'fr', strings) });
    }) as unknown as WidgetTarget['part'];
    const { texts: _bundled, ...scriptParts } = PARTS;
    openWidget({ ...AUTH, lang: 'he' }, { serviceBase: SERVICE, form: 'overlay', ...scriptParts, part });
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...scriptParts, part });
    expect(asked).toEqual(['texts-he', 'texts-fr-CA']);
    await vi.waitFor(() => expect(shadowRoots.at(-1)?.querySelector('button[aria-label="Fermer"]')).not.toBeNull());
  });
});

describe('overlay form', () => {
  it('opens the upload page in an iframe with the signed values, a channel and the host origin', () => {
    openWidget({ ...AUTH, uploadType: 'silverlight', lang: 'zh-CN' }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const { frame, query } = overlayParts();
    expect(frame.src.startsWith(`${SERVICE}${UPLOAD_PAGE_PATH}?`)).toBe(true);
    expect(Object.fromEntries(query)).toMatchObject({
      ...AUTH,
      uploadType: 'silverlight',
      needHandleSepcial: 'false',
      lang: 'zh-CN',
      origin: location.origin,
      form: 'overlay',
    });
    expect(query.get('channel')).toMatch(/^[0-9a-f]{32}$/);
    expect(shadowRoots[0]!.querySelector('[role="dialog"]')!.getAttribute('aria-modal')).toBe('true');
  });

  it('lets the iframe use the camera, microphone and screen only when recording is asked for, and passes the sources on', () => {
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    expect(overlayParts().frame.hasAttribute('allow')).toBe(false);
    openWidget({ ...AUTH, sources: ['file', 'camera'], uploadWhileRecording: true }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const { frame, query } = overlayParts();
    expect(frame.getAttribute('allow')).toBe('camera; microphone; display-capture');
    expect(query.get('sources')).toBe('["file","camera"]');
    // Not a list: passed on for the service to refuse (106 on its page), with no permissions for the iframe.
    openWidget({ ...AUTH, sources: 'camera' }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    expect(overlayParts().frame.hasAttribute('allow')).toBe(false);
    expect(overlayParts().query.get('sources')).toBe('camera');
    expect(query.get('uploadWhileRecording')).toBe('true');
  });

  it('is placed by left and top, and centred without them', () => {
    openWidget({ ...AUTH, left: '120px', top: '10%' }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const placed = shadowRoots[0]!.querySelector<HTMLElement>('[role="dialog"]')!;
    expect([placed.style.left, placed.style.top, placed.style.transform]).toEqual(['120px', '10%', 'translate(0,0)']);
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const centred = shadowRoots[1]!.querySelector<HTMLElement>('[role="dialog"]')!;
    expect([centred.style.left, centred.style.top, centred.style.transform]).toEqual(['50%', '50%', 'translate(-50%,-50%)']);
  });

  it('holds its own styles against the host page', () => {
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const host = document.body.lastElementChild as HTMLElement;
    expect(host.style.getPropertyValue('position')).toBe('fixed');
    expect(host.style.getPropertyPriority('position')).toBe('important');
  });

  it("can be reached by an integrator's browser test: an open shadow root holding the uploader's iframe", () => {
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const frame = document.querySelector('open-upload-overlay')?.shadowRoot?.querySelector('iframe');
    expect(frame?.src.startsWith(`${SERVICE}${UPLOAD_PAGE_PATH}?`)).toBe(true);
  });

  it('closes on Escape, reports the close once, and leaves nothing behind', () => {
    const before = document.body.innerHTML;
    const on = handlers();
    openWidget({ ...AUTH, ...on }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    expect(document.body.innerHTML).not.toBe(before);

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(document.body.innerHTML).toBe(before);
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith({
      videoId: 'v-1',
      reason: 'closed',
      message: 'Closed before a file was uploaded.',
    });

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(on.onFailure).toHaveBeenCalledOnce();
  });

  it('closes by its button and gives focus back', () => {
    const opener = document.body.appendChild(document.createElement('button'));
    opener.focus();
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    expect(document.activeElement).not.toBe(opener);
    overlayParts().closeButton.click();
    expect(document.querySelector('open-upload-overlay')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps focus inside while open', () => {
    const outside = document.body.appendChild(document.createElement('input'));
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    const { root, closeButton } = overlayParts();
    outside.focus();
    expect(root.activeElement).toBe(closeButton);
  });

  it('lets two open layers live side by side without fighting over focus', () => {
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    openWidget(AUTH, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    overlayParts().closeButton.focus();
    expect(document.querySelectorAll('open-upload-overlay')).toHaveLength(2);
  });
});

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
  return popup;
}

/** Opens the popup form on a fake window; returns it and the channel the loader chose. */
function openPopupWidget(config: object) {
  const popup = fakePopup();
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  const handle = openWidget({ ...AUTH, ...config }, { serviceBase: SERVICE, form: 'popup', ...PARTS });
  const [url, target, features] = open.mock.calls[0]!;
  const page = popup as unknown as Window;
  return { popup, page, handle, url: String(url), target, features, channel: url ? new URL(String(url)).searchParams.get('channel')! : '' };
}

const SUCCESS = { type: 'success', info: { videoId: 'v-1', fileName: 'a.mp4', fileSize: 3 } } as const;

describe('page events', () => {
  it('are relayed only from the service origin, the opened window and the channel', () => {
    const on = handlers();
    const { page, channel } = openPopupWidget(on);
    fromPage(page, SUCCESS, channel, 'http://evil.test');
    fromPage(window, SUCCESS, channel);
    fromPage(page, SUCCESS, 'guessed-channel');
    expect(on.onSuccess).not.toHaveBeenCalled();

    fromPage(page, { type: 'error', info: { videoId: 'v-1', reason: 'network', message: 'lost' } }, channel);
    fromPage(page, SUCCESS, channel);
    fromPage(page, SUCCESS, channel);
    expect(on.onError).toHaveBeenCalledOnce();
    expect(on.onSuccess).toHaveBeenCalledExactlyOnceWith(SUCCESS.info);
  });

  it('fire nothing on close after a success, and the page is told to stop', () => {
    const on = handlers();
    const { page, popup, channel, handle } = openPopupWidget(on);
    fromPage(page, SUCCESS, channel);
    handle.close();
    expect(on.onFailure).not.toHaveBeenCalled();
    expect(popup.postMessage).toHaveBeenCalledWith(hostMessage(channel, 'close'), SERVICE);
    expect(popup.close).toHaveBeenCalled();
  });

  it('close the widget when the page asks (Escape inside it)', () => {
    const on = handlers();
    const { page, popup, channel } = openPopupWidget(on);
    fromPage(page, { type: 'close' }, channel);
    expect(popup.close).toHaveBeenCalled();
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ reason: 'closed' }));
  });

  it('survive a throwing handler', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onSuccess = vi.fn();
    const { page, channel } = openPopupWidget({
      onSuccess,
      onError: () => {
        throw new Error('app bug');
      },
    });
    fromPage(page, { type: 'error', info: { videoId: 'v-1', reason: 'network', message: 'lost' } }, channel);
    fromPage(page, SUCCESS, channel);
    expect(error).toHaveBeenCalledWith('openUpload: an event handler threw', expect.any(Error));
    expect(onSuccess).toHaveBeenCalledOnce();
  });
});

/** The error page is written once its part has come (here at once, bundled). */
const settled = () => new Promise((resolve) => setTimeout(resolve));
const outcome = (done: Promise<unknown>) =>
  done.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ rejected: error }),
  );

describe('configuration errors the loader sees itself', () => {
  it('show the error page in a blank window without loading the upload page, and report the failure', async () => {
    const on = handlers();
    const { popup, url, handle } = openPopupWidget({ appId: '', ...on });
    expect(url).toBe('');
    await settled();
    const lines = [...popup.document.body.querySelectorAll('h1, p, button')].map((node) => node.textContent);
    expect(lines).toEqual([
      'The upload cannot start',
      'ErrorCode : 101, ErrorMessage : Missing Parameter: appId',
      'The site owner can fix this setting.',
      expect.stringMatching(/^Reference: [0-9a-f]{32}$/),
      'Close',
    ]);
    expect(await outcome(handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: '101' }) });
    expect(popup.document.documentElement.lang).toBe('en');
    // A line of its own for readers of textContent too.
    expect(popup.document.body.textContent!.split('\n')).toContain('ErrorCode : 101, ErrorMessage : Missing Parameter: appId');
    await Promise.resolve();
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith({
      videoId: 'v-1',
      reason: 'validation',
      code: '101',
      message: 'Missing Parameter: appId',
    });
    // Its Close button closes the widget, which reports nothing more: onFailure fires once per open.
    popup.document.querySelector('button')!.click();
    expect(popup.close).toHaveBeenCalled();
    expect(on.onFailure).toHaveBeenCalledOnce();
  });

  it('speak the configured language, even when another option is wrong', async () => {
    const { popup } = openPopupWidget({ token: 5, lang: 'zh-TW' });
    await settled();
    expect(popup.document.documentElement.lang).toBe('zh-TW');
    expect(popup.document.title).toBe('無法開始上傳');
    expect(popup.document.querySelector('h1')!.textContent).toBe('無法開始上傳');
  });

  it('escape what they echo', async () => {
    const { popup } = openPopupWidget({ uploadType: '<img src=x onerror=alert(1)>' });
    await settled();
    expect(popup.document.body.querySelector('img')).toBeNull();
    expect(popup.document.body.textContent).toContain('got "<img src=x onerror=alert(1)>"');
  });

  it('leave the overlay without a page address', () => {
    openWidget({ ...AUTH, timestamp: 17 }, { serviceBase: SERVICE, form: 'overlay', ...PARTS });
    expect(shadowRoots[0]!.querySelector('iframe')!.hasAttribute('src')).toBe(false);
  });
});

describe('events and done', () => {
  const PROGRESS = { type: 'progress', info: { bytesUploaded: 5, bytesTotal: 10 } } as const;
  const STATE = { type: 'state', info: { state: 'paused' } } as const;
  const PROCESSED = { type: 'processed', info: { videoId: 'v-1', status: 1 } } as const;
  const events = () => ({ onProgress: vi.fn(), onStateChange: vi.fn(), onProcessed: vi.fn() });
  /** What `done` settled with, once it has. */
  it('relays progress, state changes and processing outcomes from the page, and nothing once closed', () => {
    const on = events();
    const { page, channel, handle } = openPopupWidget(on);
    fromPage(page, PROGRESS, channel);
    fromPage(page, STATE, channel);
    fromPage(page, PROCESSED, channel);
    fromPage(window, PROGRESS, channel);
    fromPage(page, PROGRESS, channel, 'http://evil.test');
    expect(on.onProgress).toHaveBeenCalledExactlyOnceWith({ bytesUploaded: 5, bytesTotal: 10 });
    expect(on.onStateChange).toHaveBeenCalledExactlyOnceWith({ state: 'paused' });
    expect(on.onProcessed).toHaveBeenCalledExactlyOnceWith({ videoId: 'v-1', status: 1 });

    handle.close();
    fromPage(page, PROGRESS, channel);
    fromPage(page, STATE, channel);
    fromPage(page, PROCESSED, channel);
    expect(on.onProgress).toHaveBeenCalledOnce();
    expect(on.onStateChange).toHaveBeenCalledOnce();
    expect(on.onProcessed).toHaveBeenCalledOnce();
  });

  it('refuses an event handler that is not a function', () => {
    expect(() => openWidget({ ...AUTH, onProgress: 'log' }, { serviceBase: SERVICE, form: 'overlay', ...PARTS })).toThrow(
      new TypeError('openUpload: `onProgress` must be a function, got "log"'),
    );
  });

  it('done resolves with the success info, and a later close changes nothing', async () => {
    const { page, channel, handle } = openPopupWidget({});
    fromPage(page, SUCCESS, channel);
    handle.close();
    expect(await outcome(handle.done)).toEqual({ resolved: SUCCESS.info });
  });

  it('done rejects with kind closed when closed with no problem', async () => {
    const { handle } = openPopupWidget({});
    handle.close();
    const { rejected } = (await outcome(handle.done)) as { rejected: Error };
    expect(rejected).toBeInstanceOf(Error);
    expect(rejected).toMatchObject({
      name: 'UploadWidgetError',
      kind: 'closed',
      code: undefined,
      videoId: 'v-1',
      message: 'Closed before a file was uploaded.',
    });
  });

  it('done rejects with kind failure and the code at once when the service refuses the configuration', async () => {
    const { page, channel, handle } = openPopupWidget({});
    fromPage(
      page,
      { type: 'failure', info: { videoId: 'v-1', reason: 'validation', code: '104', message: 'App SecretKey Error' } },
      channel,
    );
    expect(await outcome(handle.done)).toEqual({
      rejected: expect.objectContaining({ name: 'UploadWidgetError', kind: 'failure', code: '104', message: 'App SecretKey Error' }),
    });
  });

  it('done rejects with kind failure and the code when the loader refuses the configuration', async () => {
    const { handle } = openPopupWidget({ appId: '' });
    expect(await outcome(handle.done)).toEqual({
      rejected: expect.objectContaining({ kind: 'failure', code: '101', message: 'Missing Parameter: appId' }),
    });
  });

  it('done waits after a refused upload (another file may follow), and closing then rejects with that failure', async () => {
    const { page, channel, handle } = openPopupWidget({});
    fromPage(page, { type: 'failure', info: { videoId: 'v-1', reason: 'server', code: '116', message: 'Too many' } }, channel);
    const settled = vi.fn();
    handle.done.then(settled, settled);
    await Promise.resolve();
    expect(settled).not.toHaveBeenCalled();
    handle.close();
    expect(await outcome(handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: '116' }) });
  });

  it('done rejects with kind error when closed during a network outage, and closed once bytes moved again', async () => {
    const outage = { type: 'error', info: { videoId: 'v-1', reason: 'network', message: 'lost' } } as const;
    const first = openPopupWidget({});
    fromPage(first.page, outage, first.channel);
    first.handle.close();
    expect(await outcome(first.handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'error', message: 'lost' }) });

    const second = openPopupWidget({});
    fromPage(second.page, outage, second.channel);
    fromPage(second.page, PROGRESS, second.channel);
    second.handle.close();
    expect(await outcome(second.handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'closed' }) });
  });

  it('a rejected done nobody awaits is no unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      openPopupWidget({}).handle.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('a page that never says it is there', () => {
  it('ends the open after 10 s with code `unanswered`, shows our own error page and hints at serviceUrl in the console', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const on = handlers();
    const { popup, handle, channel } = openPopupWidget(on);
    // The browser's own error page, of no origin the host can read, until the loader sends the window away.
    popup.location.href = 'chrome-error://chromewebdata/';
    popup.location.replace.mockImplementation((address: string) => {
      popup.location.href = address;
      // A new blank document of the host's origin, once loaded (jsdom's own stay `loading`).
      popup.document = document.implementation.createHTMLDocument('');
      Object.defineProperty(popup.document, 'readyState', { value: 'complete' });
    });
    vi.advanceTimersByTime(9_999);
    expect(on.onFailure).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    const failure = {
      videoId: 'v-1',
      reason: 'validation',
      code: 'unanswered',
      message: 'No Answer: the upload page did not load within 10 s',
      hint: expect.stringContaining('serviceUrl'),
    };
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith(failure);
    expect(await outcome(handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: 'unanswered' }) });
    await vi.advanceTimersByTimeAsync(100);
    expect(popup.location.replace).toHaveBeenCalledWith('about:blank');
    expect(popup.document.body.textContent).toContain(
      'ErrorCode : unanswered, ErrorMessage : No Answer: the upload page did not load within 10 s',
    );
    expect(popup.document.body.textContent).toContain(`Reference: ${channel}`);
    // The hint is the developer's: in the console and the event, never on the page.
    expect(warn).toHaveBeenCalledWith('openUpload:', expect.stringContaining('serviceUrl'));
    expect(popup.document.body.textContent).not.toContain('serviceUrl');
    popup.document.querySelector('button')!.click();
    expect(popup.close).toHaveBeenCalled();
    expect(on.onFailure).toHaveBeenCalledOnce();
  });

  it('leaves a page that said it is there alone', () => {
    vi.useFakeTimers();
    const on = handlers();
    const { page, channel, popup } = openPopupWidget(on);
    fromPage(page, { type: 'ready', valid: true }, channel);
    vi.advanceTimersByTime(60_000);
    expect(on.onFailure).not.toHaveBeenCalled();
    expect(popup.location.replace).not.toHaveBeenCalled();
  });
});

describe('onFailure', () => {
  it('fires once per open: a refused file, then a close, is one failure, and done rejects with it', async () => {
    const on = handlers();
    const { page, channel, handle } = openPopupWidget(on);
    const rejected = { videoId: 'v-1', reason: 'rejected', code: 'notVideo', message: 'not a video', fileName: 'a.txt' } as const;
    fromPage(page, { type: 'failure', info: rejected }, channel);
    handle.close();
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith(rejected);
    expect(await outcome(handle.done)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: 'notVideo' }) });
  });
});

describe('popup form', () => {
  it('opens a centred window on the upload page', () => {
    const { url, target, features } = openPopupWidget({});
    expect(new URL(url).searchParams.get('form')).toBe('popup');
    expect(target).toBe('_blank');
    expect(features).toMatch(/^popup=yes,width=640,height=560,left=\d+,top=\d+/);
    expect(document.querySelector('open-upload-overlay')).toBeNull();
  });

  it('falls back to the overlay when the popup is blocked', () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    openWidget(AUTH, { serviceBase: SERVICE, form: 'popup', ...PARTS });
    expect(overlayParts().query.get('form')).toBe('overlay');
  });

  it('reports a close when the user closes the window', () => {
    vi.useFakeTimers();
    const on = handlers();
    const { popup } = openPopupWidget(on);
    popup.closed = true;
    vi.advanceTimersByTime(1000);
    expect(on.onFailure).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ reason: 'closed' }));
  });
});
