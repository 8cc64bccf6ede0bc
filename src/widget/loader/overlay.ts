import type { WidgetContainer } from './container';
import { element } from './dom';
import type { LoaderTexts } from './texts';

import type { UploadSource } from '../../shared/widgetConfig';

export interface OverlayLayout {
  /** CSS lengths, already checked; absent means centred on that axis. */
  left?: string | undefined;
  top?: string | undefined;
  /** The `sources` option: recording needs the iframe to be allowed the camera, microphone and screen. */
  sources?: UploadSource[] | undefined;
}

/**
 * A cross-origin iframe gets no camera, microphone or screen capture unless its `allow` delegates
 * them; only pages that asked for recording delegate them, and the browser still asks the person.
 */
const RECORDING_PERMISSIONS = 'camera; microphone; display-capture';

const TAG = 'open-upload-overlay';

/**
 * The host element is the backdrop (`position:fixed` makes it a block). Inline `!important` keeps
 * it out of reach of the host page's styles: no stylesheet rule beats it.
 */
const HOST_STYLE =
  'all:initial!important;position:fixed!important;inset:0!important;z-index:2147483647!important;background:#0f172a8c!important';

/**
 * Lives in a shadow root, so its styles neither reach the host page nor are reached by its
 * stylesheets; the root holds one div, one button and one iframe, so element selectors are enough.
 */
const CSS =
  'div{position:fixed;display:flex;flex-flow:column;width:min(640px,96vw);height:min(560px,96vh);background:#fff}' +
  // The browser's own focus ring marks the button for keyboard users; 44 px each way is a touch target (WCAG 2.5.5).
  'button{align-self:flex-end;border:0;background:none;font:20px/44px system-ui;width:44px}' +
  'iframe{flex:1;border:0}' +
  // Phones: the whole screen, whatever left/top asked (the placement is inline, hence !important).
  '@media(max-width:479.9px){div{inset:0!important;transform:none!important;width:auto;height:auto}}';

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
 * A modal layer holding the upload page's iframe, in the caller's window or, with `isTop`, in its
 * reachable top. `pageUrl` gets the window the layer lands in (its origin goes on the page's
 * address); empty leaves the iframe blank for the loader's own error page. Close button and Escape
 * call `onCloseRequest()`, which may ask first; the caller's page going away calls
 * `onCloseRequest(true)`, as nobody is left to answer. Focus stays inside until removed, then goes
 * back to where it was.
 */
export function openOverlay(
  caller: Window,
  isTop: boolean,
  layout: OverlayLayout,
  texts: LoaderTexts,
  pageUrl: (host: Window) => string,
  onCloseRequest: (now?: boolean) => void,
): WidgetContainer {
  const host = isTop ? reachableTop(caller) : caller;
  const doc = host.document;
  // The caller's document, not the host's: they differ when we are framed. Focusing it once it
  // has left the page does nothing, so it needs no check.
  const previousFocus = caller.document.activeElement as HTMLElement | null;

  // An autonomous custom element name: host pages rarely style it, and it may hold a shadow root.
  const layer = doc.createElement(TAG);
  layer.style.cssText = HOST_STYLE;
  // Open, so an integrator's browser tests (Playwright, Cypress, Selenium) can reach the uploader's
  // iframe (docs/testing-your-integration.md); the iframe is the service's origin either way, so
  // the host page's scripts gain nothing they could not do to their own page.
  const root = layer.attachShadow({ mode: 'open' });

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, ...children: (Node | string)[]) =>
    element(doc, tag, attributes, ...children);
  const closeButton = el('button', { 'aria-label': texts.close }, '×');
  // The loader passes `sources` on unchecked (validateConfig.ts): not a list, the service's page says so (106).
  const records = Array.isArray(layout.sources) && layout.sources.some((source) => source !== 'file');
  const frame = el('iframe', records ? { title: texts.dialog, allow: RECORDING_PERMISSIONS } : { title: texts.dialog });
  const url = pageUrl(host);
  if (url) frame.src = url;
  // Focus sentinels: Tab past the iframe lands on the end one and wraps to the close button;
  // Shift+Tab before the close button wraps to the iframe. The iframe's own keys are invisible to us.
  const start = el('span', { tabindex: '0' });
  const end = el('span', { tabindex: '0' });
  start.onfocus = () => frame.focus();
  end.onfocus = () => closeButton.focus();
  closeButton.onclick = () => onCloseRequest();
  // Right to left, the × sits at the top left (align-self: flex-end follows the direction).
  const dialog = el(
    'div',
    { role: 'dialog', 'aria-modal': 'true', 'aria-label': texts.dialog, dir: texts.rtl ? 'rtl' : 'ltr' },
    start,
    closeButton,
    frame,
    end,
  );
  // Centred on an axis unless placed on it.
  dialog.style.cssText = `left:${layout.left ?? '50%'};top:${layout.top ?? '50%'};transform:translate(${layout.left ? 0 : '-50%'},${layout.top ? 0 : '-50%'})`;
  root.append(el('style', {}, CSS), dialog);

  // Focus anywhere else in the host page (a click, a script) comes back to the layer. Another
  // open widget's layer is left alone, or two layers would pull focus back and forth forever.
  const onFocusIn = (event: FocusEvent) => {
    if ((event.target as Element).localName !== TAG) closeButton.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onCloseRequest();
  };
  doc.addEventListener('focusin', onFocusIn, true);
  doc.addEventListener('keydown', onKeyDown, true);
  // A layer placed in the top window would outlive our frame's page; take it down with us.
  const onPageHide = () => onCloseRequest(true);
  if (host !== caller) caller.addEventListener('pagehide', onPageHide);

  doc.body.append(layer);
  frame.focus();

  return {
    host,
    page: () => frame.contentWindow,
    remove() {
      doc.removeEventListener('focusin', onFocusIn, true);
      doc.removeEventListener('keydown', onKeyDown, true);
      caller.removeEventListener('pagehide', onPageHide);
      layer.remove();
      previousFocus?.focus();
    },
  };
}
