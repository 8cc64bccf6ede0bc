import type { WidgetContainer } from './container';

const WIDTH = 640;
const HEIGHT = 560;
/**
 * The place on one axis that centres the popup over the opener (negative on a screen left of or
 * above the main one); browsers keep a window on screen.
 */
const centred = (start: number, size: number, own: number) => Math.round(start + (size - own) / 2);

/** How often to look whether the user closed the window: browsers fire no event the opener can hear. */
const CLOSED_POLL_MS = 400;

/**
 * Opens a window centred over the current one (with `popup`, browsers ignore the other
 * window features, such as resizable or scrollbars). Must run synchronously inside the click's call
 * stack, or browsers block it. Returns null when blocked, so the caller can fall back to the overlay.
 * An empty `url` opens a blank same-origin window for the loader's own error page.
 */
export function openPopup(opener: Window, url: string, onClosedByUser: () => void): WidgetContainer | null {
  const left = centred(opener.screenX, opener.outerWidth, WIDTH);
  const top = centred(opener.screenY, opener.outerHeight, HEIGHT);
  const popup = opener.open(url, '_blank', `popup=yes,width=${WIDTH},height=${HEIGHT},left=${left},top=${top}`);
  // Some blockers hand back a window that is already closed instead of null.
  if (!popup || popup.closed) return null;

  // `onClosedByUser` ends the widget, which removes the container and so stops this timer.
  const timer = opener.setInterval(() => popup.closed && onClosedByUser(), CLOSED_POLL_MS);
  popup.focus();

  return {
    host: opener,
    page: () => popup,
    remove() {
      opener.clearInterval(timer);
      // Closing a window that is already closed does nothing.
      popup.close();
    },
  };
}
