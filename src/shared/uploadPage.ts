import {
  UPLOAD_SOURCES,
  WIDGET_FORMS,
  type PageOption,
  type UploadSource,
  type UploadType,
  type WidgetForm,
  type WidgetLanguage,
  type WidgetTheme,
} from './widgetConfig';
import { decodeStrings } from './i18n/checkStrings';
import type { WidgetStrings } from './i18n/strings';
import type { ResultName } from './resultCodes';
import { decodeRestrictions, type ContentLimits, type PageRestrictions } from './restrictions';
import { PAGE_OPTIONS, WIDGET_OPTIONS, type WidgetOption } from './widgetOptions';

// The WHATWG URLSearchParams both runtimes have. src/shared is type-checked with neither the
// DOM's nor Node's types (src/shared/tsconfig.json), so it names the little it uses; at run time
// this is the global.
declare const URLSearchParams: new (init: Record<string, string>) => { set(name: string, value: string): void };

/** Path of the upload page on the service; the loader opens it in the popup or the iframe. */
export const UPLOAD_PAGE_PATH = '/UploadWidget/Upload';

/**
 * Query parameters the loader puts on the upload page's URL: the page options by their names, as
 * {@link queryText} writes them (the signed ones always), and the open's own.
 */
type UploadPageQuery = { [K in PageOption]?: string } & {
  /** Random per `openUpload` call; every message carries it. */
  channel: string;
  /** The host page's origin as the loader saw it; used only when the app has no `allowedOrigins`. */
  origin: string;
  form: WidgetForm;
};

/** How a value travels on the page's address: a list or an object as JSON, anything else as its text. */
function queryText(value: string | number | boolean | object): string {
  return typeof value === 'object' ? JSON.stringify(value) : `${value}`;
}

/**
 * The loader's side: the upload page's address, its query (UploadPageQuery) from checked options;
 * an undefined option stays off. `origin` is that of the window that will hold the container.
 * `byOption` is any table keyed by exactly the PAGE_OPTIONS (widgetOptions.ts), in their order: the loader passes
 * its rules, so its byte budget carries no second list of the names.
 */
export function uploadPageUrl(
  serviceBase: string,
  options: { [K in PageOption]?: string | number | boolean | object },
  byOption: Record<PageOption, unknown>,
  channel: string,
  origin: string,
  form: WidgetForm,
): string {
  const query = new URLSearchParams({ channel, origin, form } satisfies Partial<UploadPageQuery>);
  for (const key in byOption) {
    const value = options[key as PageOption];
    if (value !== undefined) query.set(key, queryText(value));
  }
  return `${serviceBase}${UPLOAD_PAGE_PATH}?${query}`;
}

/** The options of an upload page query as the service reads them back, defaults applied. */
export interface PageOptions {
  uploadType: UploadType;
  needHandleSepcial: boolean;
  /** Absent: the service picks the browser's language. */
  lang: WidgetLanguage | undefined;
  form: WidgetForm;
  look: UploaderLook;
  /** The `strings` option, checked (none: `{}`). */
  strings: WidgetStrings;
  /** `maxFileSize`, `accept`, `minDuration` and `maxDuration`, checked (absent: none). */
  restrictions: PageRestrictions;
  /** The `sources` option, checked (none: `['file']`). */
  sources: UploadSource[];
  uploadWhileRecording: boolean;
}

/** How the uploader looks: the `theme`, `accentColor` and `radius` options (absent: the uploader's own). */
export interface UploaderLook {
  theme: WidgetTheme;
  accentColor?: string;
  radius?: string;
}

/** A refused query, by its row of the result table: a missing option, or a value not one of those allowed. */
export interface PageQueryProblem {
  kind: Extract<ResultName, 'MISSING_PARAMETER' | 'INVALID_PARAMETER'>;
  detail: string;
}

/** What is wrong with `raw` as a value of `allowed` (a list, or a shape), if anything. */
function problemWith(allowed: readonly string[] | readonly [RegExp, string], raw: string): string | undefined {
  if (allowed[0] instanceof RegExp) return allowed[0].test(raw) ? undefined : `must be ${allowed[1]}`;
  return (allowed as readonly string[]).includes(raw) ? undefined : `must be one of ${allowed.join(', ')}`;
}

/** The `sources` option as the loader sent it (JSON): a list of distinct UPLOAD_SOURCES, or what is wrong. */
function decodeSources(raw: string): UploadSource[] | string {
  const expected = `must be a list of ${UPLOAD_SOURCES.map((source) => `"${source}"`).join(', ')}`;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return expected;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((source) => (UPLOAD_SOURCES as readonly unknown[]).includes(source)))
    return expected;
  if (new Set(value).size !== value.length) return 'names a source twice';
  return value as UploadSource[];
}

/**
 * The service's side: reads back what {@link uploadPageUrl} wrote, each page option by its check
 * in the options table (widgetOptions.ts), in the table's order, an absent or blank one as its
 * default; then the container's `form`. The signed values, channel and origin are the service's to
 * check. `get` may throw for a repeated parameter.
 */
export function decodePageOptions(
  get: (name: keyof UploadPageQuery) => string | undefined,
): { ok: true; options: PageOptions } | { ok: false; problem: PageQueryProblem } {
  const refused = (kind: PageQueryProblem['kind'], detail: string) => ({ ok: false as const, problem: { kind, detail } });
  const values: Partial<Record<PageOption, string>> = {};
  let strings: WidgetStrings = {};
  let restrictions: PageRestrictions | undefined;
  let sources: UploadSource[] = [];
  for (const name of PAGE_OPTIONS) {
    const row: WidgetOption = WIDGET_OPTIONS[name];
    const raw = get(name)?.trim() || (row.default === undefined ? undefined : queryText(row.default));
    const check = row.query;
    if (check === 'signed' || check === undefined) continue;
    if (check === 'strings') {
      const decoded = decodeStrings(raw ?? '{}');
      if (!decoded.ok) return refused('INVALID_PARAMETER', decoded.detail);
      strings = decoded.strings;
    } else if (check === 'restriction') {
      // All four at the first: they are checked against each other.
      if (restrictions) continue;
      const decoded = decodeRestrictions((restriction) => get(restriction)?.trim());
      if (!decoded.ok) return refused('INVALID_PARAMETER', decoded.detail);
      restrictions = decoded.restrictions;
    } else if (check === 'sources') {
      const decoded = decodeSources(raw ?? '');
      if (typeof decoded === 'string') return refused('INVALID_PARAMETER', `${name} ${decoded}`);
      sources = decoded;
    } else {
      const problem = raw === undefined ? undefined : problemWith(check, raw);
      if (problem) return refused('INVALID_PARAMETER', `${name} ${problem}`);
      values[name] = raw;
    }
  }
  const form = get('form')?.trim();
  if (!form) return refused('MISSING_PARAMETER', 'form');
  const formProblem = problemWith(WIDGET_FORMS, form);
  if (formProblem) return refused('INVALID_PARAMETER', `form ${formProblem}`);
  const options = {
    uploadType: values.uploadType as UploadType,
    needHandleSepcial: values.needHandleSepcial === 'true',
    lang: values.lang as WidgetLanguage | undefined,
    form: form as WidgetForm,
    look: { theme: values.theme as WidgetTheme, accentColor: values.accentColor, radius: values.radius },
    strings,
    restrictions: restrictions ?? {},
    sources,
    uploadWhileRecording: values.uploadWhileRecording === 'true',
  };
  return { ok: true, options };
}

/** An upload already started for this video, so the uploader can resume it when the same file is chosen. */
export interface ResumeState {
  /** Absolute tus upload URL. */
  uploadUrl: string;
  /** Bytes the service holds. */
  offset: number;
  size: number;
  fileName: string;
  /** The browser-computed sample fingerprint sent when the upload was created (see `fileFingerprint`). */
  fingerprint: string;
}

/**
 * What the service embeds in a validated upload page (JSON in a `<script type="application/json"
 * id="upload-boot">`); the uploader reads nothing else from the page.
 */
export interface UploadPageBoot {
  videoId: string;
  channel: string;
  /** Exact origin to post messages to. */
  hostOrigin: string;
  form: WidgetForm;
  /** The config's `lang`, else the browser's first language (Accept-Language). */
  lang: WidgetLanguage;
  /** The `strings` option's texts: the page loads its language's own (src/widget/uploader/pageTexts.ts). */
  strings: WidgetStrings;
  look: UploaderLook;
  /** Absolute URL of the tus endpoint. */
  tusEndpoint: string;
  /** Signed, expiring ticket bound to this app and video; sent as the `Upload-Ticket` header on every tus request. */
  ticket: string;
  /** Largest accepted file in bytes: the service's limit for this uploadType, or the page's `maxFileSize` when smaller. */
  maxFileSize: number;
  /** The page's other restrictions, checked before a byte is sent (none: `{}`). */
  limits: ContentLimits;
  /** The `sources` option: where the video may come from (at least one). */
  sources: UploadSource[];
  /** The `uploadWhileRecording` option. */
  uploadWhileRecording: boolean;
  /** Largest tus PATCH body in bytes, for a service behind a proxy that caps request bodies; 0: no limit, the file goes in one request. */
  uploadChunkBytes: number;
  resume: ResumeState | null;
}

/** Where the uploader asks, with its ticket, how processing goes after the upload (same origin). */
export const STATUS_PATH = '/UploadWidget/Status';

/** The reply of {@link STATUS_PATH}: the video's status as the API reports it (1 ready, 5/6 processing, 7 failed). */
export interface ProcessingStatusReply {
  VideoStatus: number;
}

/** Header that carries the ticket on tus requests. */
export const TICKET_HEADER = 'Upload-Ticket';
