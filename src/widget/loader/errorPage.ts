import type { WidgetLanguage } from '../../shared/widgetConfig';
import { element } from './dom';

/**
 * The uploader's font and the system's own light or dark colours: kept this short, like the rest
 * of the loader's parts (src/server/widget/pages.ts links the uploader's whole stylesheet).
 */
const CSS = ':root{color-scheme:light dark;font:15px system-ui}';

/** The page's heading and what the site owner can do, in each language the loader speaks. */
const TEXTS: Record<WidgetLanguage, [heading: string, advice: string]> = {
  en: ['The upload cannot start', 'The site owner can fix this setting.'],
  'zh-CN': ['无法开始上传', '请网站管理员修正设置。'],
  'zh-TW': ['無法開始上傳', '請網站管理員修正設定。'],
};

/**
 * The service's error page (src/server/widget/pages.ts) for configuration errors the loader finds
 * itself, written into a same-origin blank container (popup or iframe): a heading, the line
 * `ErrorCode : <code>, ErrorMessage : <message>` as one text node, and what the site owner can do.
 * Closing is the container's own: the overlay's × (or Escape), the popup window's close. Text
 * nodes keep every echoed value inert. A new window's or iframe's first blank document always has
 * a head and a body (HTML: "populate with html/head/body").
 */
export function writeErrorPage(doc: Document, code: string, message: string, lang: WidgetLanguage): void {
  const [heading, advice] = TEXTS[lang];
  doc.title = heading;
  doc.documentElement.lang = lang;
  doc.head.append(element(doc, 'style', {}, CSS));
  const line = `ErrorCode : ${code}, ErrorMessage : ${message}`;
  // Line breaks between the blocks, so a reader of textContent (not only innerText) finds the line on its own.
  const main = element(doc, 'main', {}, element(doc, 'h1', {}, heading), '\n', element(doc, 'p', {}, line), '\n', element(doc, 'p', {}, advice));
  doc.body.replaceChildren(main);
}
