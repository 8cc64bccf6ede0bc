import type { Container } from './container';

const WIDTH = 640;
const HEIGHT = 560;
/** How often to look whether the user closed the window: browsers fire no event the opener can hear. */
const CLOSED_POLL_MS = 400;

/**
 * Opens a window centred over the current one (with `popup`, browsers ignore the other
 * window features, such as resizable or scrollbars). Must run synchronously inside the click's call
 * stack, or browsers block it. Returns null when blocked, so the caller can fall back to the overlay.
 * An empty `url` opens a blank same-origin window for the loader's own error page.
 */
export function openPopup(opener: Window, url: string, onClosedByUser: () => void): Container | null {
  const left = Math.max(0, Math.round(opener.screenX + (opener.outerWidth - WIDTH) / 2));
  const top = Math.max(0, Math.round(opener.screenY + (opener.outerHeight - HEIGHT) / 2));
  const popup = opener.open(url, '_blank', `popup=yes,width=${WIDTH},height=${HEIGHT},left=${left},top=${top}`);
  // Some blockers hand back a window that is already closed instead of null.
  if (!popup || popup.closed) return null;

  const timer = opener.setInterval(() => {
    if (!popup.closed) return;
    opener.clearInterval(timer);
    onClosedByUser();
  }, CLOSED_POLL_MS);
  popup.focus();

  return {
    host: opener,
    page: () => popup,
    remove() {
      opener.clearInterval(timer);
      if (!popup.closed) popup.close();
    },
  };
}
