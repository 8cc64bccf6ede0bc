import type { PageMessage } from '../../shared/messages';
import type { UploadWidgetHandle } from '../../shared/widgetConfig';
import { writeErrorPage } from './errorPage';
import { listenToPage, postClose, type PageLink } from './messaging';
import { openOverlay } from './overlay';
import { randomChannel, uploadPageUrl } from './pageUrl';
import { openPopup } from './popup';
import { loaderTexts } from './texts';
import { checkConfig, type WidgetForm } from './validateConfig';

export interface WidgetTarget {
  /** The service's base URL, no trailing slash. */
  serviceBase: string;
  form: WidgetForm;
}

interface Container {
  /** Where the page's messages arrive. */
  hostWindow: Window;
  pageWindow(): Window | null;
  /** The blank container's document, for the loader's own error page. */
  blankDocument(): Document | null;
  remove(): void;
}

/** One throwing handler must not break the widget or the other handlers. */
function emit<T>(handler: ((info: T) => void) | undefined, info: T): void {
  if (!handler) return;
  try {
    handler(info);
  } catch (error) {
    console.error('openUpload: an event handler threw', error);
  }
}

/** The topmost window when its document is reachable (same origin); reading a cross-origin one throws. */
function reachableTop(win: Window): Window {
  try {
    const top = win.top;
    if (top && top !== win && top.document.body) return top;
  } catch {
    // Cross-origin top: stay in our own frame.
  }
  return win;
}

/**
 * Checks the configuration, opens the container (popup, or overlay when asked or when the popup is
 * blocked) and relays the page's events to the handlers. Runs synchronously up to `window.open`,
 * so calling it from a click keeps the popup allowed.
 */
export function openWidget(raw: unknown, target: WidgetTarget, win: Window = window): UploadWidgetHandle {
  const check = checkConfig(raw, target.form);
  const { handlers, videoId } = check;
  const texts = loaderTexts(check.ok ? check.config.lang : undefined, win.navigator.language);
  const channel = randomChannel();
  const pageUrl = (hostWindow: Window, form: WidgetForm) =>
    check.ok ? uploadPageUrl(target.serviceBase, check.config, channel, hostWindow.location.origin, form) : null;

  let closed = false;
  let succeeded = false;

  // A close ends the widget: later messages are not heard, and without a success it is a failure.
  const close = () => {
    if (closed) return;
    closed = true;
    stopListening();
    postClose(link);
    container.remove();
    if (!succeeded) emit(handlers.onFailure, { videoId, reason: 'closed', message: texts.closed });
  };

  const openContainer = (): Container => {
    if (target.form === 'popup') {
      const popup = openPopup(win, pageUrl(win, 'popup'), close);
      if (popup) {
        return { hostWindow: win, pageWindow: () => popup.window, blankDocument: () => popup.window.document, remove: popup.close };
      }
      // Blocked: the overlay needs no permission, so the user still gets the uploader.
    }
    const isTop = check.ok ? check.config.isTop : true;
    const hostWindow = isTop ? reachableTop(win) : win;
    const layout = check.ok ? check.config : { left: undefined, top: undefined };
    const overlay = openOverlay(hostWindow, win.document, layout, texts, close);
    const url = pageUrl(hostWindow, 'overlay');
    if (url) overlay.frame.src = url;
    // A layer placed in the top window would outlive our frame's page; take it down with us.
    if (hostWindow !== win) win.addEventListener('pagehide', close);
    return {
      hostWindow,
      pageWindow: () => overlay.frame.contentWindow,
      blankDocument: () => overlay.frame.contentDocument,
      remove() {
        win.removeEventListener('pagehide', close);
        overlay.remove();
      },
    };
  };

  const container = openContainer();
  const link: PageLink = {
    hostWindow: container.hostWindow,
    serviceOrigin: new URL(target.serviceBase).origin,
    pageWindow: container.pageWindow,
    channel,
  };

  const onMessage = (message: PageMessage) => {
    switch (message.type) {
      case 'success':
        if (succeeded) return;
        succeeded = true;
        emit(handlers.onSuccess, message.info);
        return;
      case 'failure':
        emit(handlers.onFailure, message.info);
        return;
      case 'error':
        emit(handlers.onError, message.info);
        return;
      // 'ready' and 'uploading' need nothing from the loader.
      case 'close':
        close();
    }
  };
  const stopListening = listenToPage(link, onMessage);

  if (!check.ok) {
    const { code, message } = check.problem;
    const doc = container.blankDocument();
    if (doc) writeErrorPage(doc, code, message);
    // After returning, so a handler may already use the handle.
    queueMicrotask(() => emit(handlers.onFailure, { videoId, reason: 'validation', code, message }));
  }

  return { close };
}
