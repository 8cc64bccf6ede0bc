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

/** Keeps the host element out of reach of the host page's styles: inline `!important` beats any stylesheet rule. */
const HOST_STYLE: Record<string, string> = {
  all: 'initial',
  display: 'block',
  position: 'fixed',
  inset: '0',
  'z-index': '2147483647',
};

/** Lives in a closed shadow root, so it neither reaches the host page nor is reached by it. */
const CSS = `
*{box-sizing:border-box}
.backdrop{position:fixed;inset:0;background:rgba(15,23,42,.55)}
.dialog{position:fixed;display:flex;flex-direction:column;width:min(640px,calc(100vw - 16px));height:min(560px,calc(100vh - 16px));background:#fff;border-radius:10px;box-shadow:0 12px 40px rgba(0,0,0,.35);overflow:hidden}
.bar{display:flex;justify-content:flex-end;padding:4px;background:#f1f5f9}
.close{all:unset;cursor:pointer;font:20px/1 system-ui,sans-serif;color:#334155;width:32px;height:32px;text-align:center;border-radius:6px}
.close:hover{background:#e2e8f0}
.close:focus-visible{outline:2px solid #2563eb}
iframe{flex:1;width:100%;border:0;display:block}
`;

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
  const host = doc.createElement('open-upload-overlay');
  for (const [name, value] of Object.entries(HOST_STYLE)) host.style.setProperty(name, value, 'important');
  const root = host.attachShadow({ mode: 'closed' });

  const style = doc.createElement('style');
  style.textContent = CSS;
  const backdrop = doc.createElement('div');
  backdrop.className = 'backdrop';

  const dialog = doc.createElement('div');
  dialog.className = 'dialog';
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-label', texts.dialog);
  dialog.style.left = layout.left ?? '50%';
  dialog.style.top = layout.top ?? '50%';
  dialog.style.transform = `translate(${layout.left ? '0' : '-50%'},${layout.top ? '0' : '-50%'})`;

  const bar = doc.createElement('div');
  bar.className = 'bar';
  const closeButton = doc.createElement('button');
  closeButton.type = 'button';
  closeButton.className = 'close';
  closeButton.setAttribute('aria-label', texts.close);
  closeButton.textContent = '×';
  closeButton.addEventListener('click', onCloseRequest);
  bar.append(closeButton);

  const frame = doc.createElement('iframe');
  frame.title = texts.dialog;

  // Focus sentinels: Tab past the iframe lands on the end one and wraps to the close button;
  // Shift+Tab before the close button wraps to the iframe. The iframe's own keys are invisible to us.
  const sentinel = (onFocus: () => void) => {
    const edge = doc.createElement('span');
    edge.tabIndex = 0;
    edge.addEventListener('focus', onFocus);
    return edge;
  };
  dialog.append(sentinel(() => frame.focus()), bar, frame, sentinel(() => closeButton.focus()));
  root.append(style, backdrop, dialog);

  // Focus anywhere else in the host page (a click, a script) comes back to the layer.
  const onFocusIn = (event: FocusEvent) => {
    if (event.target !== host) closeButton.focus();
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
