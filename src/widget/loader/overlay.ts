import type { LoaderTexts } from './texts';

export interface OverlayLayout {
  /** CSS lengths, already checked; absent means centred on that axis. */
  left: string | undefined;
  top: string | undefined;
}

export interface Overlay {
  frame: HTMLIFrameElement;
  /** Removes every node and listener it added and gives focus back. */
  remove(): void;
}

const TAG = 'open-upload-overlay';

/** Keeps the host element out of reach of the host page's styles: inline `!important` beats any stylesheet rule. */
const HOST_STYLE: Record<string, string> = {
  all: 'initial',
  display: 'block',
  position: 'fixed',
  inset: '0',
  'z-index': '2147483647',
};

/** Lives in a closed shadow root, so it neither reaches the host page nor is reached by it (short class names: the loader is size-bound). */
const CSS =
  '.b{position:fixed;inset:0;background:#0f172a8c}' +
  '.d{position:fixed;display:flex;flex-direction:column;width:min(640px,calc(100vw - 16px));height:min(560px,calc(100vh - 16px));background:#fff;border-radius:10px;box-shadow:0 12px 40px #0006;overflow:hidden}' +
  '.c{all:unset;align-self:flex-end;cursor:pointer;font:20px/32px system-ui,sans-serif;color:#334155;width:32px;text-align:center}' +
  '.c:focus-visible{outline:2px solid #2563eb}' +
  'iframe{flex:1;border:0}';

/**
 * A modal layer holding the upload page's iframe, in `hostWindow` (the current window or its
 * reachable top). Close button and Escape call `onCloseRequest`; focus stays inside until removed,
 * then goes back to where it was in `callerDocument` (which differs from the host's when we are framed).
 */
export function openOverlay(
  hostWindow: Window,
  callerDocument: Document,
  layout: OverlayLayout,
  texts: LoaderTexts,
  onCloseRequest: () => void,
): Overlay {
  const doc = hostWindow.document;
  const previousFocus = callerDocument.activeElement as HTMLElement | null;

  // An autonomous custom element name: host pages rarely style it, and it may hold a shadow root.
  const host = doc.createElement(TAG);
  for (const [name, value] of Object.entries(HOST_STYLE)) host.style.setProperty(name, value, 'important');
  const root = host.attachShadow({ mode: 'closed' });

  // Built node by node (no innerHTML): host pages that enforce Trusted Types would refuse markup strings.
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, ...children: (Node | string)[]) => {
    const element = doc.createElement(tag);
    for (const name in attributes) element.setAttribute(name, attributes[name]!);
    element.append(...children);
    return element;
  };
  const closeButton = el('button', { type: 'button', class: 'c', 'aria-label': texts.close }, '×');
  const frame = el('iframe', { title: texts.dialog });
  // Focus sentinels: Tab past the iframe lands on the end one and wraps to the close button;
  // Shift+Tab before the close button wraps to the iframe. The iframe's own keys are invisible to us.
  const start = el('span', { tabindex: '0' });
  const end = el('span', { tabindex: '0' });
  start.onfocus = () => frame.focus();
  end.onfocus = () => closeButton.focus();
  closeButton.onclick = onCloseRequest;
  const dialog = el('div', { class: 'd', role: 'dialog', 'aria-modal': 'true', 'aria-label': texts.dialog }, start, closeButton, frame, end);
  // Centred on an axis unless placed on it.
  dialog.style.cssText = `left:${layout.left ?? '50%'};top:${layout.top ?? '50%'};transform:translate(${layout.left ? 0 : '-50%'},${layout.top ? 0 : '-50%'})`;
  root.append(el('style', {}, CSS), el('div', { class: 'b' }), dialog);

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

  doc.body.append(host);
  frame.focus();

  return {
    frame,
    remove() {
      doc.removeEventListener('focusin', onFocusIn, true);
      doc.removeEventListener('keydown', onKeyDown, true);
      host.remove();
      if (previousFocus?.isConnected) previousFocus.focus();
    },
  };
}
