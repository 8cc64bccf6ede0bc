import type { ResultCodeOf } from '../../shared/resultCodes';
import type { BaseUploadConfig, OverlayUploadConfig, PageOption, UploadEventHandlers, WidgetForm } from '../../shared/widgetConfig';
import { DEFAULTS, HANDLERS, OVERLAY_OPTIONS, REQUIRED, RULES, type OVERLAY_RULES } from './optionRules';

/**
 * The configuration after checking: the options as given (strings trimmed), with the signed
 * options' defaults (DEFAULTS); the service applies the others' defaults, and openUpload.ts the
 * overlay's `isTop`, where the popup's fallback layer needs it too.
 */
type ResolvedConfig = Omit<OverlayUploadConfig, keyof UploadEventHandlers> & Required<Pick<BaseUploadConfig, keyof typeof DEFAULTS>>;

/** A configuration error shown on the error page, with the service's code for the same failure (src/shared/resultCodes.ts). */
interface ConfigProblem {
  code: ResultCodeOf<'MISSING_PARAMETER' | 'INVALID_PARAMETER'>;
  message: string;
}

export type ConfigCheck = {
  handlers: UploadEventHandlers;
  /** The videoId as given (empty when it is missing or not a string), for the event info. */
  videoId: string;
} & ({ ok: true; config: ResolvedConfig } | { ok: false; problem: ConfigProblem });

/** The checks of the overlay-only options (optionRules.ts), given by the builds that open the overlay. */
export type OverlayRules = typeof OVERLAY_RULES;

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
  // Codes and wording as the service's for the same failure (src/shared/resultCodes.ts, http/params.ts).
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
