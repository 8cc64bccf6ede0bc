import type { UploadFailureInfo } from '../../shared/widgetConfig';
import type { WidgetContainer } from './container';
import { element } from './dom';
import type { LoaderTexts } from './texts';

/**
 * The uploader's font, the system's own light or dark colours, and a page laid out as the
 * service's error page is (src/server/widget/pages.ts links the uploader's whole stylesheet,
 * which a same-origin blank page cannot load): short, like the rest of the loader's parts.
 */
const CSS =
  ':root{color-scheme:light dark;font:15px/1.5 system-ui}' +
  'main{max-width:34em;margin:0 auto;padding:2em 1.5em}h1{font-size:1.3em;margin:0 0 .8em}' +
  '.reference{opacity:.7;font-size:.9em}' +
  'button{font:inherit;padding:.5em 1.2em;border-radius:8px;border:1px solid;background:none;color:inherit;cursor:pointer}';

/** How often to look whether a container sent to about:blank has got there (navigation gives the opener no event). */
const POLL_MS = 50;

/** Gives the page the loader's look and language, for both of its pages below. */
function dress(doc: Document, title: string, { lang, rtl }: LoaderTexts): void {
  doc.title = title;
  doc.documentElement.lang = lang;
  if (rtl) doc.documentElement.dir = 'rtl';
  doc.head.append(element(doc, 'style', {}, CSS));
}

/**
 * The service's error page (src/server/widget/pages.ts) for what the loader finds itself (a
 * configuration it refuses, a service that never answers), in the loader's words (the `texts`
 * part), written into a same-origin blank document: a heading, the line
 * `ErrorCode : <code>, ErrorMessage : <message>` as one text node, what the site owner can do, a
 * reference that names this open (its channel), and a Close button. Text nodes keep every echoed
 * value inert. A new window's or iframe's first blank document always has a head and a body (HTML:
 * "populate with html/head/body").
 */
export function writeErrorPage(
  doc: Document,
  code: string,
  message: string,
  texts: LoaderTexts,
  reference: string,
  onClose: () => void,
): void {
  dress(doc, texts.errorHeading, texts);
  const line = `ErrorCode : ${code}, ErrorMessage : ${message}`;
  const close = element(doc, 'button', { type: 'button' }, texts.close);
  close.onclick = onClose;
  // Line breaks between the blocks, so a reader of textContent (not only innerText) finds the line on its own.
  const main = element(
    doc,
    'main',
    {},
    element(doc, 'h1', {}, texts.errorHeading),
    '\n',
    element(doc, 'p', {}, line),
    '\n',
    element(doc, 'p', {}, texts.adviceSetting),
    '\n',
    element(doc, 'p', { class: 'reference' }, `Reference: ${reference}`),
    '\n',
    close,
  );
  doc.body.replaceChildren(main);
}

/** The line the npm module's `config()` shows while it runs (DeferredConfig), dressed as the error page. */
export function writeWaitingPage(doc: Document, texts: LoaderTexts): void {
  dress(doc, texts.dialog, texts);
  doc.body.replaceChildren(element(doc, 'main', { 'aria-busy': 'true' }, element(doc, 'p', { role: 'status' }, texts.configWaiting)));
}

/** The page's document when it is our own blank one (and, after a navigation, loaded); reading another origin's throws. */
function blankDocument(page: Window, loaded: boolean): Document | undefined {
  try {
    return page.location.href === 'about:blank' && (!loaded || page.document.readyState === 'complete') ? page.document : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Shows the error page in the container: at once in the blank one the loader opened for a refused
 * configuration; otherwise (the upload page, or the browser's own page for an address that did
 * not answer) once the container, sent to about:blank, has a document of the host's origin.
 */
export async function showErrorPage(
  container: WidgetContainer,
  { code, message, hint }: UploadFailureInfo,
  words: Promise<LoaderTexts>,
  reference: string,
  onClose: () => void,
): Promise<void> {
  // For the developer only: the console, never the page.
  if (hint) console.warn('openUpload:', hint);
  const texts = await words;
  const win = container.page();
  if (!win) return;
  const write = (loaded: boolean) => {
    const doc = blankDocument(win, loaded);
    if (doc) writeErrorPage(doc, code ?? '', message, texts, reference, onClose);
    return !!doc;
  };
  if (write(false)) return;
  win.location.replace('about:blank');
  const timer = container.host.setInterval(() => (win.closed || write(true)) && container.host.clearInterval(timer), POLL_MS);
}
