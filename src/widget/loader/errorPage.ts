import { element } from './dom';
import type { LoaderTexts } from './texts';

/**
 * The uploader's font and the system's own light or dark colours: kept this short, like the rest
 * of the loader's parts (src/server/widget/pages.ts links the uploader's whole stylesheet).
 */
const CSS = ':root{color-scheme:light dark;font:15px system-ui}';

/**
 * The service's error page (src/server/widget/pages.ts) for configuration errors the loader finds
 * itself, in the loader's words (the `texts` part), written into a same-origin blank container (popup or iframe): a heading, the line
 * `ErrorCode : <code>, ErrorMessage : <message>` as one text node, and what the site owner can do.
 * Closing is the container's own: the overlay's × (or Escape), the popup window's close. Text
 * nodes keep every echoed value inert. A new window's or iframe's first blank document always has
 * a head and a body (HTML: "populate with html/head/body").
 */
export function writeErrorPage(
  doc: Document,
  code: string,
  message: string,
  { errorHeading: heading, adviceSetting: advice, lang, rtl }: LoaderTexts,
): void {
  doc.title = heading;
  doc.documentElement.lang = lang;
  if (rtl) doc.documentElement.dir = 'rtl';
  doc.head.append(element(doc, 'style', {}, CSS));
  const line = `ErrorCode : ${code}, ErrorMessage : ${message}`;
  // Line breaks between the blocks, so a reader of textContent (not only innerText) finds the line on its own.
  const main = element(
    doc,
    'main',
    {},
    element(doc, 'h1', {}, heading),
    '\n',
    element(doc, 'p', {}, line),
    '\n',
    element(doc, 'p', {}, advice),
  );
  doc.body.replaceChildren(main);
}
