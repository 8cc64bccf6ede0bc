import { hostMessage, isPageMessage, type PageMessage } from '../../shared/messages';
import type { Container } from './container';

/**
 * Delivers a page message only when it comes from the service's exact origin, from the very window
 * we opened, on this open's channel, and has a valid shape: another window or frame cannot fire a
 * callback. Returns the function that ends the link: it stops listening and asks the page to stop
 * its upload cleanly (posted to the service's origin only).
 */
export function linkToPage(container: Container, serviceOrigin: string, channel: string, onMessage: (message: PageMessage) => void): () => void {
  const listener = (event: MessageEvent) => {
    const page = container.page();
    if (page && event.origin === serviceOrigin && event.source === page && isPageMessage(event.data, channel)) onMessage(event.data);
  };
  container.host.addEventListener('message', listener);
  return () => {
    container.host.removeEventListener('message', listener);
    // Posting to a window the user already closed is silently dropped, so this needs no guard.
    container.page()?.postMessage(hostMessage(channel), serviceOrigin);
  };
}
