import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pageMessage, type PageMessage } from '../../shared/messages';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { LOADER_WORDS } from '../../shared/i18n/loaderWords';
import type { StringKey } from '../../shared/i18n/strings';
import { stringTable } from '../../shared/i18n/tables';
import { RTL_LANGUAGES, type WidgetLanguage } from '../../shared/widgetConfig';
import { ERRORS, type ServiceError } from '../errors';
import { errorHeaders } from '../http/reply';
import { escapeHtml, jsonForScript } from './html';
import type { ErrorPageLook, NotifyTarget } from './pageQuery';
import type { UploaderAssets } from './uploaderAssets';

/** Where the page's own files are served (see static routes). */
export const ASSETS_PATH = '/UploadWidget/assets';

/** Headers of both pages: never cached (they hold a ticket or echo a request), never sniffed, no referrer leaking the query. */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

function send(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, html: string): void {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers, 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}

/** The root element's language attributes: Arabic, Hebrew and Persian are laid out right to left. */
function languageAttributes(lang: WidgetLanguage): string {
  return `lang="${lang}"${RTL_LANGUAGES.includes(lang) ? ' dir="rtl"' : ''}`;
}

/**
 * The uploader page: only scripts and styles of this service, uploads only to it, and framed only
 * by the host origin. The JSON data block is not script, so CSP needs no 'unsafe-inline'.
 */
export function sendUploadPage(res: ServerResponse, boot: UploadPageBoot, publicOrigin: string, assets: UploaderAssets): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    // The preview's <video> reads the chosen file through an object URL.
    'media-src blob:',
    "font-src 'self' data:",
    `connect-src 'self' ${publicOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${boot.hostOrigin}`,
  ].join('; ');
  const html = `<!doctype html>
<html ${languageAttributes(boot.lang)}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(boot.strings.dialog ?? LOADER_WORDS[boot.lang].dialog)}</title>
${assets.styles.map((name) => `<link rel="stylesheet" href="${ASSETS_PATH}/${name}">\n`).join('')}<script type="application/json" id="upload-boot">${jsonForScript(boot)}</script>
${assets.locales[boot.lang] ? `<link rel="modulepreload" href="${ASSETS_PATH}/${assets.locales[boot.lang]}">\n` : ''}${assets.limits && Object.keys(boot.limits).length > 0 ? `<link rel="modulepreload" href="${ASSETS_PATH}/${assets.limits}">\n` : ''}<script type="module" src="${ASSETS_PATH}/${assets.script}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
  send(res, 200, { 'Content-Security-Policy': csp }, html);
}

/** What `error.js` posts to the page that opened the widget. */
export interface ErrorPageData {
  targetOrigin: string;
  messages: PageMessage[];
  /** For the site's developer: logged to the console (and in the failure's `hint`), never shown. */
  hint?: string | undefined;
  /** Posted when the person presses the page's Close button (shown only when the host can hear it). */
  close: PageMessage;
}

/** Path of the error page's one script; it only posts the data block's messages. */
export const ERROR_SCRIPT_PATH = `${ASSETS_PATH}/error.js`;

/**
 * The validation error page: a heading, the line `ErrorCode : <code>, ErrorMessage : <message>`
 * (one text node: tests outside the project read it), what the person or the site owner can do,
 * a "Reference: <request id>" line that ties what the person reports to the log's lines, and a
 * Close button that `error.js` shows when the host can hear it. Styled by the uploader's
 * stylesheet, in the uploader's language. It may be framed anywhere, so the user sees why even
 * when the host origin is the problem. It reports to the host on the page's channel, at the origin
 * the query names: all of it to an origin the app trusts, only what refused it to another.
 */
export function sendErrorPage(
  res: ServerResponse,
  error: ServiceError,
  target: NotifyTarget | undefined,
  { lang, theme, strings }: ErrorPageLook,
  styles: readonly string[],
  requestId: string,
): void {
  const text = `ErrorCode : ${error.code}, ErrorMessage : ${error.resultMessage}`;
  // The `strings` option only where the page reports to a trusted host: anyone can link to an
  // error page, and the service's own origin must not show a stranger's words.
  const t = stringTable(lang, target?.trusted ? strings : {});
  const adviceKey = `advice${error.code}`;
  const advice = adviceKey in t ? t[adviceKey as StringKey] : t.adviceOther;
  let report = '';
  if (target) {
    // An origin the app does not trust hears what refused it and no more: the code, the table's
    // message without its detail, the reference, and the values it sent itself.
    const hint = target.trusted
      ? undefined
      : `${target.origin} is not one of the app's allowedOrigins: add it there to open the widget from this page`;
    const data: ErrorPageData = {
      targetOrigin: target.origin,
      messages: [
        pageMessage(target.channel, { type: 'ready', valid: false }),
        pageMessage(target.channel, {
          type: 'failure',
          info: {
            videoId: target.videoId,
            reason: 'validation',
            code: error.code,
            message: target.trusted ? error.resultMessage : ERRORS[error.kind].message,
            requestId,
            ...(hint && { hint }),
          },
        }),
      ],
      hint,
      close: pageMessage(target.channel, { type: 'close' }),
    };
    report = `<script type="application/json" id="upload-error">${jsonForScript(data)}</script>
`;
  }
  const html = `<!doctype html>
<html ${languageAttributes(lang)}${theme === 'auto' ? '' : ` data-theme="${theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.errorTitle)}</title>
${styles.map((name) => `<link rel="stylesheet" href="${ASSETS_PATH}/${name}">\n`).join('')}${report}<script src="${ERROR_SCRIPT_PATH}" defer></script>
</head>
<body>
<main class="uploader error-page">
<h1>${escapeHtml(t.errorHeading)}</h1>
<p class="error-line">${escapeHtml(text)}</p>
<p class="hint">${escapeHtml(advice)}</p>
<p class="reference">Reference: ${escapeHtml(requestId)}</p>
<div class="actions"><button type="button" id="close-widget" hidden>${escapeHtml(t.close)}</button></div>
</main>
</body>
</html>
`;
  const csp = "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'";
  send(res, error.httpStatus, { 'Content-Security-Policy': csp, ...errorHeaders(error) }, html);
}
