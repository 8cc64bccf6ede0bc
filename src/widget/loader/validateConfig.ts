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
const OVERLAY_ONLY: readonly string[] = ['left', 'top', 'isTop'] satisfies readonly (keyof OverlayOptions)[];
const COMMON: readonly string[] = [...REQUIRED, 'uploadType', 'needHandleSepcial', 'lang', ...HANDLERS];

const oneOf = <T extends string>(...values: T[]) => (value: unknown) => values.includes(value as T);
const isBoolean = (value: unknown) => typeof value === 'boolean';
/** Non-negative lengths only: a negative offset would push the layer out of sight. */
const isCssLength = (value: unknown) =>
  typeof value === 'string' && /^(?:0|(?:\d+|\d*\.\d+)(?:px|%|em|rem|vw|vh|vmin|vmax|ch|ex|pt|pc|cm|mm|in))$/i.test(value.trim());
const LENGTH = 'a CSS length such as "120px" or "10%"';

/** The optional options in the order of the spec's table, so the first problem reported is the one the service would report. */
const RULES: [key: string, valid: (value: unknown) => boolean, expected: string][] = [
  ['uploadType', oneOf<UploadType>('flash', 'silverlight'), '"flash" or "silverlight"'],
  ['needHandleSepcial', isBoolean, 'true or false'],
  ['isTop', isBoolean, 'true or false'],
  ['left', isCssLength, LENGTH],
  ['top', isCssLength, LENGTH],
  ['lang', oneOf<WidgetLanguage>('en', 'zh-CN'), '"en" or "zh-CN"'],
];

function describe(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : value === null ? 'null' : `a ${Array.isArray(value) ? 'list' : typeof value}`;
}

const fail = (message: string) => new TypeError(`openUpload: ${message}`);

/**
 * Throws for mistakes in how `openUpload` is called (not an object, unknown option, a handler that
 * is not a function): these are programmer errors, and without working handlers there is nobody
 * to tell. Problems with the spec's parameters are returned instead, to be shown as the same
 * `ErrorCode : <code>, ErrorMessage : <message>` page the service shows, without a request.
 */
export function checkConfig(raw: unknown, form: WidgetForm): ConfigCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail(`expected a configuration object, got ${describe(raw)}`);
  const options = raw as Record<string, unknown>;

  for (const key in options) {
    if (COMMON.includes(key) || (form === 'overlay' && OVERLAY_ONLY.includes(key))) continue;
    throw fail(OVERLAY_ONLY.includes(key) ? `\`${key}\` is an option of the overlay form only` : `unknown option \`${key}\``);
  }

  const handlers: UploadEventHandlers = {};
  for (const name of HANDLERS) {
    const handler = options[name];
    if (handler !== undefined && typeof handler !== 'function') throw fail(`\`${name}\` must be a function, got ${describe(handler)}`);
    handlers[name] = handler as never;
  }

  const videoId = typeof options.videoId === 'string' ? options.videoId.trim() : '';
  const problem = findProblem(options);
  if (problem) return { ok: false, problem, handlers, videoId };

  const str = (key: (typeof REQUIRED)[number]) => (options[key] as string).trim();
  return {
    ok: true,
    handlers,
    videoId,
    config: {
      appId: str('appId'),
      timestamp: str('timestamp'),
      token: str('token'),
      videoId,
      uploadType: (options.uploadType as UploadType | undefined) ?? DEFAULTS.uploadType,
      needHandleSepcial: (options.needHandleSepcial as boolean | undefined) ?? DEFAULTS.needHandleSepcial,
      lang: options.lang as WidgetLanguage | undefined,
      left: (options.left as string | undefined)?.trim(),
      top: (options.top as string | undefined)?.trim(),
      isTop: (options.isTop as boolean | undefined) ?? DEFAULTS.isTop,
    },
  };
}

/** Codes and wording as the service's for the same failure (src/server/errors.ts, http/params.ts). */
function findProblem(options: Record<string, unknown>): ConfigProblem | undefined {
  const invalid = (key: string, expected: string): ConfigProblem => ({
    code: '106',
    message: `Invalid Parameter: ${key} must be ${expected}, got ${describe(options[key])}`,
  });
  for (const key of REQUIRED) {
    const value = options[key];
    // Blank counts as missing, as on the service.
    if (value == null || (typeof value === 'string' && !value.trim())) return { code: '101', message: `Missing Parameter: ${key}` };
    if (typeof value !== 'string') return invalid(key, 'a string');
  }
  for (const [key, valid, expected] of RULES) if (options[key] !== undefined && !valid(options[key])) return invalid(key, expected);
  return undefined;
}
