import type { UploadPageQuery } from '../../shared/uploadPage';
import type { UploadEventHandlers, UploadType, WidgetLanguage } from '../../shared/widgetConfig';

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

/** The options the upload page takes (src/shared/uploadPage.ts). */
type PageOption = keyof UploadPageQuery & keyof ResolvedConfig;
type Rule = [valid: (value: unknown) => boolean, expected: string];

const typeIs = (type: string) => (value: unknown) => typeof value === type;
const oneOf = <T>(...values: T[]) => (value: unknown) => values.includes(value as T);
const STRING: Rule = [typeIs('string'), 'a string'];
const BOOLEAN: Rule = [typeIs('boolean'), 'true or false'];
/** Non-negative lengths only: a negative offset would push the layer out of sight. */
const LENGTH: Rule = [
  (value) => typeof value === 'string' && /^(0|\d*\.?\d+(px|%|em|rem|vw|vh|vmin|vmax|ch|ex|pt|pc|cm|mm|in))$/i.test(value.trim()),
  'a CSS length such as "120px" or "10%"',
];

/**
 * The options the service checks too (they go on the upload page's address), in the spec table's
 * order, so the first problem reported is the one the service would report. The first four are
 * required; the rest have a default.
 */
const RULES: Record<PageOption, Rule> = {
  appId: STRING,
  timestamp: STRING,
  token: STRING,
  videoId: STRING,
  uploadType: [oneOf<UploadType>('flash', 'silverlight'), '"flash" or "silverlight"'],
  needHandleSepcial: BOOLEAN,
  lang: [oneOf<WidgetLanguage>('en', 'zh-CN'), '"en" or "zh-CN"'],
};

/**
 * Options of the overlay form only; the service never sees them, so they are checked last. Kept
 * apart so the popup loader, which refuses them, does not carry their checks.
 */
const OVERLAY_ONLY = ['isTop', 'left', 'top'] as const satisfies (keyof ResolvedConfig)[];
const OVERLAY_RULES: Record<(typeof OVERLAY_ONLY)[number], Rule> = {
  isTop: BOOLEAN,
  left: LENGTH,
  top: LENGTH,
};

/** `left`/`top` absent mean centred, `lang` absent means the browser's language. */
const DEFAULTS: Omit<ResolvedConfig, 'appId' | 'timestamp' | 'token' | 'videoId'> = {
  uploadType: 'flash',
  needHandleSepcial: false,
  lang: undefined,
  isTop: true,
  left: undefined,
  top: undefined,
};

export const PAGE_OPTIONS = Object.keys(RULES) as PageOption[];
const HANDLERS = ['onSuccess', 'onFailure', 'onError'] as const satisfies (keyof UploadEventHandlers)[];
/** Every option name: the defaults name every optional one, overlay-only ones included. */
const KNOWN: string[] = [...PAGE_OPTIONS, ...Object.keys(DEFAULTS), ...HANDLERS];

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
    if (!KNOWN.includes(key)) throw fail(`unknown option \`${key}\``);
    if (form !== 'overlay' && OVERLAY_ONLY.includes(key as never)) throw fail(`\`${key}\` is an option of the overlay form only`);
  }

  const handlers: UploadEventHandlers = {};
  for (const name of HANDLERS) {
    const handler = options[name];
    if (handler !== undefined && typeof handler !== 'function') throw fail(`\`${name}\` must be a function, got ${describe(handler)}`);
    handlers[name] = handler as never;
  }

  const videoId = typeof options.videoId === 'string' ? options.videoId.trim() : '';
  // Codes and wording as the service's for the same failure (src/server/errors.ts, http/params.ts).
  const problem = (code: ConfigProblem['code'], message: string): ConfigCheck => ({ ok: false, problem: { code, message }, handlers, videoId });
  const config: Record<string, unknown> = { ...DEFAULTS };
  const rules = form === 'overlay' ? { ...RULES, ...OVERLAY_RULES } : RULES;
  for (const key in rules) {
    const value = options[key];
    const trimmed = typeof value === 'string' ? value.trim() : value;
    const [valid, expected] = rules[key as PageOption]!;
    // A required option left blank counts as missing, as on the service.
    if (!(key in DEFAULTS) && (trimmed == null || trimmed === '')) return problem('101', `Missing Parameter: ${key}`);
    if (value === undefined) continue;
    if (!valid(value)) return problem('106', `Invalid Parameter: ${key} must be ${expected}, got ${describe(value)}`);
    config[key] = trimmed;
  }
  return { ok: true, handlers, videoId, config: config as unknown as ResolvedConfig };
}
