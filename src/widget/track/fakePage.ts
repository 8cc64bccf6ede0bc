import { vi } from 'vitest';
import { pageMessage, type PageMessage, type WithoutEnvelope } from '../../shared/messages';

/** A service address for tests; nothing is fetched from it. */
export const SERVICE = 'http://service.test';
export const AUTH = { appId: 'app-a', timestamp: '1700000000', token: '0123456789abcdef0123456789abcdef', videoId: 'v-1' };

/**
 * Test double of the popup window `window.open` returns (jsdom opens no window): the real
 * `openUpload` opens it, and `say` plays the upload page's messages to the loader.
 */
export function fakePopup() {
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
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  /** The upload page's address the loader opened. */
  const url = () => new URL(String(open.mock.lastCall?.[0]));
  return {
    popup,
    open,
    url,
    say(message: WithoutEnvelope<PageMessage>) {
      const channel = url().searchParams.get('channel')!;
      window.dispatchEvent(
        new MessageEvent('message', { data: pageMessage(channel, message), origin: SERVICE, source: popup as unknown as Window }),
      );
    },
  };
}
