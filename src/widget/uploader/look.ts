import type { UploaderLook } from '../../shared/uploadPage';

/** Dark ink on a light accent, white on a dark one: the larger WCAG contrast of the two. */
function inkOn(hex: string): string {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((pair) => {
    const channel = parseInt(pair, 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // White's contrast (1.05 / (L + 0.05)) beats near-black's ((L + 0.05) / 0.0566) below about L 0.18.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0566 ? '#fff' : '#0f172a';
}

/**
 * Applies the host's look to the page: `data-theme` (styles.css keys its dark colours on it; `auto`
 * follows the system and its changes), and the accent and radius as CSS custom properties (set
 * through CSSOM, which the page's CSP allows). The values were checked by the loader and the
 * service. Returns the function that stops following the system.
 */
export function applyLook(root: HTMLElement, look: UploaderLook, win: Window = window): () => void {
  if (look.accentColor) {
    root.style.setProperty('--accent', look.accentColor);
    root.style.setProperty('--accent-hover', look.accentColor);
    root.style.setProperty('--on-accent', inkOn(look.accentColor));
  }
  if (look.radius) root.style.setProperty('--radius', look.radius);
  if (look.theme !== 'auto') {
    root.dataset.theme = look.theme;
    return () => {};
  }
  // jsdom and very old browsers have no matchMedia: light then.
  const dark = win.matchMedia?.('(prefers-color-scheme: dark)');
  const follow = () => (root.dataset.theme = dark?.matches ? 'dark' : 'light');
  follow();
  dark?.addEventListener('change', follow);
  return () => dark?.removeEventListener('change', follow);
}
