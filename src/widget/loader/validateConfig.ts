import {
  HANDLERS,
  OVERLAY_OPTIONS,
  UPLOAD_TYPES,
  WIDGET_LANGUAGES,
  type Container,
  type PageOption,
  type UploadEventHandlers,
  type UploadSource,
  type UploadType,
  type WidgetForm,
  type WidgetLanguage,
  type WidgetTheme,
} from '../../shared/widgetConfig';
import type { WidgetStrings } from '../../shared/i18n/strings';

/** The configuration after checking, with every default applied (an absent optional one is undefined). */
interface ResolvedConfig {
  appId: string;
  timestamp: string;
  token: string;
  videoId: string;
  uploadType: UploadType;
  needHandleSepcial: boolean;
  lang?: WidgetLanguage;
  theme?: WidgetTheme;
  accentColor?: string;
  radius?: string;
  strings?: WidgetStrings;
  maxFileSize?: number;
  accept?: Container[];
  minDuration?: number;
  maxDuration?: number;
  sources?: UploadSource[];
  uploadWhileRecording?: boolean;
  left?: string;
  top?: string;
  /** Absent: true (openUpload.ts applies it, where the popup's fallback layer needs it too). */
  isTop?: boolean;
}

/** A configuration error shown on the error page, with the service's code for the same failure (src/server/errors.ts). */
interface ConfigProblem {
  code: '101' | '106';
  message: string;
}

export type ConfigCheck = {
  handlers: UploadEventHandlers;
  /** The videoId as given (empty when it is missing or not a string), for the event info. */
  videoId: string;
} & ({ ok: true; config: ResolvedConfig } | { ok: false; problem: ConfigProblem });

export type Rule = [valid: (value: unknown) => boolean, expected: string];

const typeIs = (type: string) => (value: unknown) => typeof value === type;
const oneOf = (values: readonly string[]): Rule => [
  (value) => values.includes(value as string),
  values.map((value) => `"${value}"`).join(' or '),
];
const STRING: Rule = [typeIs('string'), 'a string'];
export const BOOLEAN: Rule = [typeIs('boolean'), 'true or false'];

/**
 * Any value whose JSON fits the page's address: it travels there as JSON, which a server or proxy
 * refuses outright (414, 431: no error page) past 8 to 16 KB. The service checks the value itself.
 */
const SERVICE_CHECKS: Rule = [(value) => encodeURIComponent(JSON.stringify(value)).length <= 8e3, 'at most 8000 bytes as URL-encoded JSON'];

/**
 * The options the service checks too, in PAGE_OPTIONS order (the first problem is the one the
 * service would report). The look (`theme`, `accentColor`, `radius`) is only checked to be
 * strings, `strings` and the restrictions (`maxFileSize`, `accept`, `minDuration`,
 * `maxDuration`) to be small enough, here: the service checks the values (106 on its error
 * page), which keeps their lists and patterns out of the popup loader's bytes.
 */
export const RULES: Record<PageOption, Rule> = {
  appId: STRING,
  timestamp: STRING,
  token: STRING,
  videoId: STRING,
  uploadType: oneOf(UPLOAD_TYPES),
  needHandleSepcial: BOOLEAN,
  lang: oneOf(WIDGET_LANGUAGES),
  theme: STRING,
  accentColor: STRING,
  radius: STRING,
  strings: SERVICE_CHECKS,
  maxFileSize: SERVICE_CHECKS,
  accept: SERVICE_CHECKS,
  minDuration: SERVICE_CHECKS,
  maxDuration: SERVICE_CHECKS,
  // A list of names the service checks (106), as it checks `accept`'s.
  sources: SERVICE_CHECKS,
  uploadWhileRecording: BOOLEAN,
};

/** The checks of the overlay-only options (overlayRules.ts), given by the builds that open the overlay. */
export type OverlayRules = Record<(typeof OVERLAY_OPTIONS)[number], Rule>;

/**
 * The options with a default; the others stay absent when not given: `isTop` absent means true, `left`/`top` absent mean
 * centred, `lang` absent means the browser's language, the look's absent options are the
 * uploader's own, absent restrictions the service's limits.
 */
const DEFAULTS: Pick<ResolvedConfig, 'uploadType' | 'needHandleSepcial'> = {
  uploadType: 'flash',
  needHandleSepcial: false,
};

/** The required options, the first RULES (PAGE_OPTIONS begins with them). */
const REQUIRED = 4;

/** Every option name. */
const KNOWN: string[] = [...Object.keys(RULES), ...OVERLAY_OPTIONS, ...HANDLERS];

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
export function checkConfig(raw: unknown, form: WidgetForm, overlayRules?: OverlayRules): ConfigCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail(`expected a configuration object, got ${describe(raw)}`);
  const options = raw as Record<string, unknown>;

  for (const key in options) {
    if (!KNOWN.includes(key)) throw fail(`unknown option \`${key}\``);
    if (form !== 'overlay' && OVERLAY_OPTIONS.includes(key as never)) throw fail(`\`${key}\` is an option of the overlay form only`);
  }

  const handlers: UploadEventHandlers = {};
  for (const name of HANDLERS) {
    const handler = options[name];
    if (handler !== undefined && typeof handler !== 'function') throw fail(`\`${name}\` must be a function, got ${describe(handler)}`);
    handlers[name] = handler as never;
  }

  const videoId = typeof options.videoId === 'string' ? options.videoId.trim() : '';
  // Codes and wording as the service's for the same failure (src/server/errors.ts, http/params.ts).
  const problem = (code: ConfigProblem['code'], message: string): ConfigCheck => ({
    ok: false,
    problem: { code, message },
    handlers,
    videoId,
  });
  const config: Record<string, unknown> = { ...DEFAULTS };
  // The overlay's options are checked last: the service never sees them.
  const rules = form === 'overlay' ? { ...RULES, ...overlayRules } : RULES;
  let required = REQUIRED;
  for (const key in rules) {
    const value = options[key];
    const trimmed = typeof value === 'string' ? value.trim() : value;
    const [valid, expected] = rules[key as PageOption]!;
    // A required option left blank counts as missing, as on the service.
    if (required-- > 0 && (trimmed == null || trimmed === '')) return problem('101', `Missing Parameter: ${key}`);
    if (value === undefined) continue;
    if (!valid(value)) return problem('106', `Invalid Parameter: ${key} must be ${expected}, got ${describe(value)}`);
    config[key] = trimmed;
  }
  return { ok: true, handlers, videoId, config: config as unknown as ResolvedConfig };
}
