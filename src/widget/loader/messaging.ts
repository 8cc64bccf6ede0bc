import { hostMessage, isPageMessage, type PageMessage } from '../../shared/messages';

export interface PageLink {
  /** The window the page's messages arrive at: the opener of the popup, or the window holding the iframe. */
  hostWindow: Window;
  /** Exact origin of the service; nothing else may speak for the page. */
  serviceOrigin: string;
  /** The page's window (popup or iframe); read on every message because an iframe gets it only once attached. */
  pageWindow: () => Window | null;
  channel: string;
}

/**
 * Delivers a message only when it comes from the service's origin, from the very window we opened,
 * on this open's channel, and has a valid shape: another window or frame cannot fire a callback.
 * Returns the function that stops listening.
 */
export function listenToPage(link: PageLink, onMessage: (message: PageMessage) => void): () => void {
  const listener = (event: MessageEvent) => {
    const page = link.pageWindow();
    if (page === null || event.origin !== link.serviceOrigin || event.source !== page) return;
    if (isPageMessage(event.data, link.channel)) onMessage(event.data);
  };
  link.hostWindow.addEventListener('message', listener);
  return () => link.hostWindow.removeEventListener('message', listener);
}

/** Asks the page to stop its upload cleanly; posted to the exact service origin only. */
export function postClose(link: PageLink): void {
  const page = link.pageWindow();
  try {
    page?.postMessage(hostMessage(link.channel), link.serviceOrigin);
  } catch {
    // The window is already gone; there is nothing left to stop.
  }
}
