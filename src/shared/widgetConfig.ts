/**
 * The options of `openUpload(config)`, named once for the loader, the upload page's query, the
 * service and the public types: the spec's option table, spelled as there (`needHandleSepcial`
 * included), plus the npm module's `serviceUrl` and `form`.
 */
import type { WidgetStrings } from './i18n/strings';
import type { FailureCode } from './resultCodes';
import type { SignedOption } from './widgetOptions';

export const UPLOAD_TYPES = ['flash', 'silverlight'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const WIDGET_LANGUAGES = [
  'en',
  'zh-CN',
  'zh-TW',
  'ja',
  'ko',
  'es',
  'fr',
  'de',
  'pt-BR',
  'ar',
  'it',
  'nl',
  'pl',
  'sv',
  'cs',
  'tr',
  'ru',
  'uk',
  'vi',
  'id',
  'th',
  'hi',
  'he',
  'fa',
] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];
/** The languages written right to left: their pages get `dir="rtl"`. */
export const RTL_LANGUAGES: readonly WidgetLanguage[] = ['ar', 'he', 'fa'];
export const WIDGET_THEMES = ['auto', 'light', 'dark'] as const;
/** `auto` follows the system's `prefers-color-scheme`. */
export type WidgetTheme = (typeof WIDGET_THEMES)[number];

/**
 * The uploader's language for a browser language tag (navigator.language, or Accept-Language's
 * first): Traditional Chinese for Taiwan, Hong Kong, Macau and `zh-Hant`, Simplified for other
 * Chinese, Brazilian Portuguese for any Portuguese, another language we speak by its primary
 * subtag (`fr-CA` is French), else English.
 */
export function languageOf(tag: string): WidgetLanguage {
  if (/^\s*zh-(tw|hk|mo|hant)\b/i.test(tag)) return 'zh-TW';
  const primary = /^\s*([a-z]{2})\b/i.exec(tag)?.[1]!.toLowerCase();
  // The first of the list with that primary subtag: zh-CN for zh, pt-BR for pt.
  return WIDGET_LANGUAGES.find((lang) => lang.slice(0, 2) === primary) ?? 'en';
}

/** Option values checked by shape, with the words both the loader and the service use to say what was expected. */
export const VALUE_SHAPES = {
  /** Non-negative only: a negative offset would push the layer out of sight, a negative radius means nothing. */
  length: [/^(0|\d*\.?\d+(px|%|em|rem|vw|vh|vmin|vmax|ch|ex|pt|pc|cm|mm|in))$/i, 'a CSS length such as "120px" or "10%"'],
  colour: [/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'a hex colour such as "#2563eb"'],
} as const satisfies Record<string, readonly [RegExp, string]>;
/**
 * Where a video may come from: `file`, one the person has (chosen, dropped or pasted); `camera`,
 * recorded in the uploader with the camera and microphone; `screen`, a recording of the screen,
 * a window or a tab (desktop browsers).
 */
export const UPLOAD_SOURCES = ['file', 'camera', 'screen'] as const;
export type UploadSource = (typeof UPLOAD_SOURCES)[number];
/** The sources the uploader records itself. */
export type RecordSource = Exclude<UploadSource, 'file'>;
export const WIDGET_FORMS = ['popup', 'overlay'] as const;
/** The popup window, or the overlay layer with an iframe. */
export type WidgetForm = (typeof WIDGET_FORMS)[number];

export type { PageOption } from './widgetOptions';
/**
 * The containers the `accept` option names, as the uploader tells them apart by a file's first
 * bytes (src/widget/uploader/videoSignature.ts): ISO base media by its `ftyp` brand (`mov` is
 * QuickTime's `qt`, `m4v` Apple's `M4V`, `3gp` the 3GPP brands, `mp4` every other), Matroska by
 * its EBML DocType (`webm`, else `mkv`), the rest by their own signatures.
 */
export const CONTAINERS = ['mp4', 'mov', 'm4v', '3gp', 'webm', 'mkv', 'avi', 'flv', 'wmv', 'mpeg', 'ts', 'ogg', 'rm', 'mxf', 'dv'] as const;
export type Container = (typeof CONTAINERS)[number];

/**
 * Why the uploader refused a chosen file before sending a byte: the `code` of an `onFailure`
 * with reason `rejected`, and the key of the text it shows.
 * - `empty`, `notVideo` (neither a video type nor a video extension), `notVideoContent` (the
 *   first bytes are no video container), `unreadable` (the browser could not read the file);
 * - `tooLarge`: over `maxFileSize` or the service's limit for the `uploadType`;
 * - `notAccepted`: a container the `accept` option does not list;
 * - `tooShort`, `tooLong`: under `minDuration` or over `maxDuration`;
 * - `durationUnknown`: a duration limit is set and the browser could not read the file's duration.
 */
export type FileRefusal =
  'empty' | 'notVideo' | 'notVideoContent' | 'unreadable' | 'tooLarge' | 'notAccepted' | 'tooShort' | 'tooLong' | 'durationUnknown';

/** Sent to `onSuccess` once the service has stored the whole file. */
export interface UploadSuccessInfo {
  videoId: string;
  fileName: string;
  /** Bytes. */
  fileSize: number;
}

/**
 * Why no file was uploaded:
 * - `closed`: the widget was closed before a file was stored;
 * - `rejected`: the chosen file was refused before a byte was sent (`code` says why, {@link FileRefusal});
 * - `validation`: the service refused the configuration (see `code`), or the upload endpoint cannot
 *   be reached from the upload page (code `unreachable`, {@link WidgetCode});
 * - `server`: the service refused the upload itself (see `code`);
 * - `config`: the page's `config()` rejected (code `config`), see {@link DeferredConfig}.
 */
export type UploadFailureReason = 'closed' | 'rejected' | 'validation' | 'server' | 'config';

export interface UploadFailureInfo {
  videoId: string;
  reason: UploadFailureReason;
  /** Why, when it can be said in a code: see {@link UploadFailureCode}. */
  code?: UploadFailureCode;
  /** Human-readable, in the widget's language. */
  message: string;
  fileName?: string;
  fileSize?: number;
  /** The service's id of the request it refused (its `X-Request-Id`): quote it to the service's operator. */
  requestId?: string;
  /**
   * For the site's developer, in English: what to check, such as the `serviceUrl` or the app's
   * `allowedOrigins`. Also logged to the console as a warning; never shown to the person.
   */
  hint?: string;
}

/**
 * The codes the widget gives itself (the service's are numbers, such as "104"):
 * - `config`: the page's `config()` rejected (reason `config`);
 * - `unanswered`: the upload page did not say it was there within 10 s of the open (a `serviceUrl`
 *   that reaches nothing, a service that is down); reason `validation`, with a `hint`;
 * - `unreachable`: the upload page loaded, but its upload endpoint cannot be reached from the
 *   page's origin (a proxy that does not pass the tus path on, or an address other than
 *   `PUBLIC_URL` that only partly reaches the service); reason `validation`: nothing can be
 *   uploaded until the setting changes, and the message names both origins.
 */
export type WidgetCode = 'config' | 'unanswered' | 'unreachable';

/**
 * The `code` of a failure, from one of three lists:
 * - the service's result code ({@link FailureCode}, `"101"` … `"116"` and `"500"`), with reason
 *   `server` or `validation` (the loader gives the service's codes for what it refuses itself);
 * - which check refused the file ({@link FileRefusal}), with reason `rejected`;
 * - the widget's own ({@link WidgetCode}), with reason `config` or `validation`.
 */
export type UploadFailureCode = FailureCode | FileRefusal | WidgetCode;

/** Sent to `onError` when a network problem outlasted the automatic retries. */
export interface UploadErrorInfo {
  videoId: string;
  reason: 'network';
  message: string;
  fileName?: string;
  fileSize?: number;
  /** Bytes the service holds; the upload resumes from here when the same file is chosen again. */
  bytesUploaded?: number;
}

/** Sent to `onProgress` at most 10 times a second while bytes move, and once with the last figure. */
export interface UploadProgressInfo {
  /** Bytes the upload has sent so far (resumed uploads start from what the service held). */
  bytesUploaded: number;
  /** The file's size in bytes. */
  bytesTotal: number;
}

/**
 * What happens to the upload, sent to `onStateChange`:
 * - `paused`: the person paused it (or stopped it to close);
 * - `resumed`: bytes move again after any of the others but `finishing`;
 * - `offline`: the browser went offline; it goes on once the browser is back online;
 * - `retrying`: a network problem outlasted the automatic retries; it tries again every 10 s;
 * - `finishing`: every byte is sent and the service is completing the file (`onSuccess` follows).
 */
export const UPLOAD_STATES = ['paused', 'resumed', 'offline', 'retrying', 'finishing'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

export interface UploadStateInfo {
  state: UploadState;
}

/** Processing's outcomes (HTTP API statuses): 1 ready, 4 the source could not be fetched, 7 failed. */
export const PROCESSED_STATUSES = [1, 4, 7] as const;

/** Sent to `onProcessed` once the uploaded video has reached an outcome, while the widget is open. */
export interface UploadProcessedInfo {
  videoId: string;
  status: (typeof PROCESSED_STATUSES)[number];
}

export interface UploadEventHandlers {
  /** Called once when the video file is completely stored by the service. */
  onSuccess?: (info: UploadSuccessInfo) => void;
  /**
   * Called once per open: at its first failure (a refused file or upload, a refused configuration,
   * a service that did not answer), else when the widget closes with no file stored.
   */
  onFailure?: (info: UploadFailureInfo) => void;
  /** Called when a network problem outlasted the retries. */
  onError?: (info: UploadErrorInfo) => void;
  /** Called at most 10 times a second while bytes move. */
  onProgress?: (info: UploadProgressInfo) => void;
  /** Called when the upload pauses, resumes, waits for the network, or finishes sending. */
  onStateChange?: (info: UploadStateInfo) => void;
  /** Called when the uploaded video reaches status 1, 4 or 7, if the widget is still open. */
  onProcessed?: (info: UploadProcessedInfo) => void;
}

/** Options shared by both forms (spec, Upload widget). */
export interface BaseUploadConfig extends UploadEventHandlers {
  /** Application identifier. Required. */
  appId: string;
  /** Whole seconds since 1970 (UTC), as a decimal string, as signed by the app's backend. Required. */
  timestamp: string;
  /** MD5(timestamp + AppSecret) in lowercase hex, computed by the app's backend. Required. */
  token: string;
  /** The VideoId returned by `/Api/Video/Post` with SourceFileGetType 1. Required. */
  videoId: string;
  /**
   * Selects the size limit only (Flash and Silverlight are gone; both use the same resumable uploader).
   * @default 'flash'
   */
  uploadType?: UploadType;
  /** true: the service keeps the source as the only play file instead of transcoding. @default false */
  needHandleSepcial?: boolean;
  /** Text language. @default the browser's language when it is one of these (Traditional Chinese for zh-TW/zh-HK/zh-Hant, Simplified for other Chinese, pt-BR for any Portuguese), else English */
  lang?: WidgetLanguage;
  /** Light or dark colours. @default 'auto' (the system's) */
  theme?: WidgetTheme;
  /** The uploader's accent (buttons, bar), a hex colour such as "#0f766e". @default a blue */
  accentColor?: string;
  /** Corner radius of buttons and panels, a CSS length such as "4px". @default '8px' */
  radius?: string;
  /**
   * Texts by key that replace the language's own, e.g. `{ choose: 'Pick your clip' }`; keys and
   * English texts in docs/widget.md. Plain text (never HTML), at most 500 characters each; a
   * text's `{name}` placeholders are the ones its English text has. @default none
   */
  strings?: WidgetStrings;
  /**
   * Largest file in bytes, a whole number. Only narrows: above the service's limit for the
   * `uploadType`, the service's limit stays. @default the service's limit
   */
  maxFileSize?: number;
  /**
   * The containers taken, checked by the file's first bytes (not its name), e.g.
   * `['mp4', 'mov', 'webm']`; a file in any other, or in none we know, is refused. @default any video
   */
  accept?: Container[];
  /**
   * Shortest duration in seconds, read by the browser before a byte is sent; a file whose duration
   * the browser cannot read is refused while a duration limit is set. @default none
   */
  minDuration?: number;
  /** Longest duration in seconds, read likewise (see `minDuration`). @default none */
  maxDuration?: number;
  /**
   * Where the video may come from, any of `'file'`, `'camera'`, `'screen'`: with `camera` the
   * uploader offers "Record with camera" beside the file choice (on touch devices, the device's
   * own camera), with `screen` "Record the screen" (desktop browsers). @default ['file']
   */
  sources?: UploadSource[];
  /**
   * With `camera` or `screen`: send the recording while it records (a tus upload of deferred
   * length), so that little is left to send when the person keeps the take. @default false
   */
  uploadWhileRecording?: boolean;
}

/** Overlay-only options. */
export interface OverlayOptions {
  /** CSS length from the left of the covered window, e.g. "120px" or "10%". @default centered */
  left?: string;
  /** CSS length from the top of the covered window. @default centered */
  top?: string;
  /** Cover the topmost window when it is reachable (same origin); false keeps the layer in the current frame. @default true */
  isTop?: boolean;
}

export type PopupUploadConfig = BaseUploadConfig;
export type OverlayUploadConfig = BaseUploadConfig & OverlayOptions;

/** The npm module also needs to know where the service is; the script tags find it from their own `src`. */
export interface ModuleOptions {
  /** The service's base URL, e.g. "https://video.example.com". Required for the npm module. */
  serviceUrl: string;
  /** Which container to open. @default 'popup' */
  form?: WidgetForm;
}

/**
 * Why `done` rejected: `failure` (the loader or the service refused, see `code`; on a refused
 * configuration at once, else when the widget closes after a refusal), `error` (the widget closed
 * while a network problem was unresolved) or `closed` (closed with nothing uploaded and no problem).
 */
export type UploadEndKind = 'failure' | 'error' | 'closed';

/**
 * The reason `done` rejected. A plain `Error` with a constant `name` (check `name`, or use
 * `isUploadWidgetError`: `instanceof` fails across windows).
 */
export interface UploadWidgetError extends Error {
  name: 'UploadWidgetError';
  kind: UploadEndKind;
  /** The failure's code when there was one, e.g. "104" (as `onFailure`'s, {@link UploadFailureCode}). */
  code?: UploadFailureCode;
  videoId: string;
}

/** What `openUpload` returns: a handle to close the widget from code, and its outcome. */
export interface UploadWidgetHandle {
  close(): void;
  /**
   * Resolves once the file is stored (as `onSuccess`); rejects with an {@link UploadWidgetError}
   * when the widget ends without one. Never rejects unhandled: leaving it unawaited is fine.
   */
  done: Promise<UploadSuccessInfo>;
}

export type SignedOptions = Pick<BaseUploadConfig, SignedOption>;

/**
 * A configuration whose signed part arrives after the click: the window opens inside the click
 * (so no popup blocker refuses it) with a waiting line, and the upload page follows once
 * `config()` resolves. A rejection closes it and reports `onFailure` with reason `config`.
 */
export type DeferredConfig<Config> = Config extends unknown
  ? Omit<Config, SignedOption> & Refused<SignedOption> & { config: () => Promise<SignedOptions> }
  : never;

/**
 * Options a call may not name, as optional `never`: a union's members otherwise let an object
 * literal carry any member's option, and the runtime throws for what the types let through.
 */
type Refused<Option extends string> = { [Name in Option]?: never };

type ModuleForms = (PopupUploadConfig & { form?: 'popup' } & Refused<keyof OverlayOptions>) | (OverlayUploadConfig & { form: 'overlay' });

/**
 * The npm module's `openUpload` argument: the form picks which options are allowed (left/top/isTop
 * only with the overlay), and the signed options come here or from `config`, never both.
 */
export type ModuleUploadConfig = ModuleOptions & ModuleForms & Refused<'config'>;

/** The npm module's `openUpload` argument with the signed options from `config()` (DeferredConfig). */
export type DeferredModuleConfig = ModuleOptions & DeferredConfig<ModuleForms>;
