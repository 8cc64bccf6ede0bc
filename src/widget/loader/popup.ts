const WIDTH = 640;
const HEIGHT = 560;
/** How often to look whether the user closed the window: browsers fire no event the opener can hear. */
const CLOSED_POLL_MS = 400;

export interface Popup {
  window: Window;
  /** Stops watching and closes the window. */
  close(): void;
}

/**
 * Opens a window centred over the current one. Must run synchronously inside the click's call
 * stack, or browsers block it. Returns null when blocked, so the caller can fall back to the overlay.
 * `url` null opens a blank same-origin window for the loader's own error page.
 */
export function openPopup(opener: Window, url: string | null, onClosedByUser: () => void): Popup | null {
  const left = Math.max(0, Math.round(opener.screenX + (opener.outerWidth - WIDTH) / 2));
  const top = Math.max(0, Math.round(opener.screenY + (opener.outerHeight - HEIGHT) / 2));
  const features = `popup=yes,width=${WIDTH},height=${HEIGHT},left=${left},top=${top},resizable=yes,scrollbars=yes`;
  const popup = opener.open(url ?? '', '_blank', features);
  // Some blockers hand back a window that is already closed instead of null.
  if (!popup || popup.closed) return null;

  const timer = opener.setInterval(() => {
    if (!popup.closed) return;
    opener.clearInterval(timer);
    onClosedByUser();
  }, CLOSED_POLL_MS);
  popup.focus();

  return {
    window: popup,
    close() {
      opener.clearInterval(timer);
      if (!popup.closed) popup.close();
    },
  };
}
