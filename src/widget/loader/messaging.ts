import { hostMessage, isPageMessage, type HostMessage, type PageMessage } from '../../shared/messages';
import type { WidgetContainer } from './container';

export interface PageLink {
  /** Posts to the page, to the service's origin only (posting to a closed window is silently dropped). */
  tell(type: HostMessage['type']): void;
  /** Stops listening and asks the page to stop its upload cleanly. */
  stop(): void;
}

/**
 * Delivers a page message only when it comes from the service's exact origin, from the very window
 * we opened, on this open's channel, and has a valid shape: another window or frame cannot fire a
 * callback.
 */
export function linkToPage(
  container: WidgetContainer,
  serviceOrigin: string,
  channel: string,
  onMessage: (message: PageMessage) => void,
): PageLink {
  const listener = (event: MessageEvent) => {
    const page = container.page();
    if (page && event.origin === serviceOrigin && event.source === page && isPageMessage(event.data, channel)) onMessage(event.data);
  };
  container.host.addEventListener('message', listener);
  const tell = (type: HostMessage['type']) => container.page()?.postMessage(hostMessage(channel, type), serviceOrigin);
  return {
    tell,
    stop() {
      container.host.removeEventListener('message', listener);
      tell('close');
    },
  };
}
