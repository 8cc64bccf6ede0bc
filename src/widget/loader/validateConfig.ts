import type {
  OverlayOptions,
  UploadEventHandlers,
  UploadType,
  WidgetLanguage,
} from '../../shared/widgetConfig';

export type WidgetForm = 'popup' | 'overlay';

/** The configuration after checking, with every default applied. */
export interface ResolvedConfig {
  appId: string;
  timestamp: string;
  token: string;
  videoId: string;
  uploadType: UploadType;
  needHandleSepcial: boolean;
  lang: WidgetLanguage | undefined;
  left: string | undefined;
  top: string | undefined;
  isTop: boolean;
}

/** A configuration error shown on the error page, with the service's code for the same failure (src/server/errors.ts). */
export interface ConfigProblem {
  code: '101' | '106';
  message: string;
}

export type ConfigCheck = {
  handlers: UploadEventHandlers;
  /** The videoId as given (empty when it is missing or not a string), for the event info. */
  videoId: string;
} & ({ ok: true; config: ResolvedConfig } | { ok: false; problem: ConfigProblem });

const DEFAULTS = {
  uploadType: 'flash',
  needHandleSepcial: false,
  isTop: true,
} as const satisfies Pick<ResolvedConfig, 'uploadType' | 'needHandleSepcial' | 'isTop'>;

const REQUIRED = ['appId', 'timestamp', 'token', 'videoId'] as const;
const HANDLERS = ['onSuccess', 'onFailure', 'onError'] as const satisfies readonly (keyof UploadEventHandlers)[];
const OVERLAY_ONLY = ['left', 'top', 'isTop'] as const satisfies readonly (keyof OverlayOptions)[];
const COMMON: ReadonlySet<string> = new Set([...REQUIRED, 'uploadType', 'needHandleSepcial', 'lang', ...HANDLERS]);

const UPLOAD_TYPES: readonly UploadType[] = ['flash', 'silverlight'];
const LANGUAGES: readonly WidgetLanguage[] = ['en', 'zh-CN'];

/** Non-negative lengths only: a negative offset would push the layer out of sight. */
const CSS_LENGTH = /^(?:0|(?:\d+|\d*\.\d+)(?:px|%|em|rem|vw|vh|vmin|vmax|ch|ex|pt|pc|cm|mm|in))$/i;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `"${value}"` : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Throws for mistakes in how `openUpload` is called (not an object, unknown option, a handler that
 * is not a function): these are programmer errors, and without working handlers there is nobody
 * to tell. Problems with the spec's parameters are returned instead, to be shown as the same
 * `ErrorCode : <code>, ErrorMessage : <message>` page the service shows, without a request.
 */
export function checkConfig(raw: unknown, form: WidgetForm): ConfigCheck {
  if (!isPlainObject(raw)) throw new TypeError(`openUpload: expected a configuration object, got ${describe(raw)}`);

  for (const key of Object.keys(raw)) {
    if (COMMON.has(key)) continue;
    if ((OVERLAY_ONLY as readonly string[]).includes(key)) {
      if (form === 'overlay') continue;
      throw new TypeError(`openUpload: \`${key}\` is an option of the overlay form (UploadABoxWidget, or form: 'overlay'), not of the popup`);
    }
    throw new TypeError(`openUpload: unknown option \`${key}\``);
  }

  const handlers: UploadEventHandlers = {};
  for (const name of HANDLERS) {
    const handler = raw[name];
    if (handler === undefined) continue;
    if (typeof handler !== 'function') throw new TypeError(`openUpload: \`${name}\` must be a function, got ${describe(handler)}`);
    handlers[name] = handler as never;
  }

  const videoId = typeof raw.videoId === 'string' ? raw.videoId.trim() : '';
  const problem = findProblem(raw);
  if (problem) return { ok: false, problem, handlers, videoId };

  const str = (key: (typeof REQUIRED)[number]) => (raw[key] as string).trim();
  return {
    ok: true,
    handlers,
    videoId,
    config: {
      appId: str('appId'),
      timestamp: str('timestamp'),
      token: str('token'),
      videoId,
      uploadType: (raw.uploadType as UploadType | undefined) ?? DEFAULTS.uploadType,
      needHandleSepcial: (raw.needHandleSepcial as boolean | undefined) ?? DEFAULTS.needHandleSepcial,
      lang: raw.lang as WidgetLanguage | undefined,
      left: (raw.left as string | undefined)?.trim(),
      top: (raw.top as string | undefined)?.trim(),
      isTop: (raw.isTop as boolean | undefined) ?? DEFAULTS.isTop,
    },
  };
}

const invalid = (message: string): ConfigProblem => ({ code: '106', message: `Invalid Parameter: ${message}` });

/** In the order of the spec's option table, so the first problem reported is the one the service would report. */
function findProblem(raw: Record<string, unknown>): ConfigProblem | undefined {
  for (const key of REQUIRED) {
    const value = raw[key];
    // Blank counts as missing, as on the service (src/server/http/params.ts).
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      return { code: '101', message: `Missing Parameter: ${key}` };
    }
    if (typeof value !== 'string') return invalid(`${key} must be a string, got ${describe(value)}`);
  }
  if (raw.uploadType !== undefined && !UPLOAD_TYPES.includes(raw.uploadType as UploadType)) {
    return invalid(`uploadType must be "flash" or "silverlight", got ${describe(raw.uploadType)}`);
  }
  if (raw.needHandleSepcial !== undefined && typeof raw.needHandleSepcial !== 'boolean') {
    return invalid(`needHandleSepcial must be true or false, got ${describe(raw.needHandleSepcial)}`);
  }
  if (raw.isTop !== undefined && typeof raw.isTop !== 'boolean') {
    return invalid(`isTop must be true or false, got ${describe(raw.isTop)}`);
  }
  for (const key of ['left', 'top'] as const) {
    const value = raw[key];
    if (value !== undefined && (typeof value !== 'string' || !CSS_LENGTH.test(value.trim()))) {
      return invalid(`${key} must be a CSS length such as "120px" or "10%", got ${describe(value)}`);
    }
  }
  if (raw.lang !== undefined && !LANGUAGES.includes(raw.lang as WidgetLanguage)) {
    return invalid(`lang must be "en" or "zh-CN", got ${describe(raw.lang)}`);
  }
  return undefined;
}
