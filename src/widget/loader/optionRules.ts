// Written by `npx tsx scripts/widgetOptions.ts` from src/shared/widgetOptions.ts; edit that table, not this file.
import { UPLOAD_TYPES, WIDGET_FORMS, WIDGET_LANGUAGES } from '../../shared/widgetConfig';
import type { PageOption } from '../../shared/widgetOptions';
import { BOOLEAN, LENGTH, LIST, NUMBER, oneOf, SERVICE_CHECKS, STRING, type Rule } from './rules';

/** The checks of the options the service checks too, in the table's order: the first problem is the one the service would report. */
export const RULES: Record<PageOption, Rule> = {
  appId: STRING,
  timestamp: STRING,
  token: STRING,
  videoId: STRING,
  uploadType: /* @__PURE__ */ oneOf(UPLOAD_TYPES),
  needHandleSepcial: BOOLEAN,
  lang: /* @__PURE__ */ oneOf(WIDGET_LANGUAGES),
  theme: STRING,
  accentColor: STRING,
  radius: STRING,
  strings: SERVICE_CHECKS,
  maxFileSize: SERVICE_CHECKS,
  accept: SERVICE_CHECKS,
  minDuration: SERVICE_CHECKS,
  maxDuration: SERVICE_CHECKS,
  sources: SERVICE_CHECKS,
  uploadWhileRecording: BOOLEAN,
};

/** How many of RULES, from the first, are required. */
export const REQUIRED = 4;

/** The defaults of the signed options, which the page's address always carries; the service applies the others. */
export const DEFAULTS = { uploadType: 'flash', needHandleSepcial: false } as const;

/** The overlay form's own options: the popup's builds refuse them by name, and carry none of their checks. */
export const OVERLAY_OPTIONS = ['isTop', 'left', 'top'] as const;

/** The defaults of the overlay's options: the popup's fallback layer takes them too. */
export const OVERLAY_DEFAULTS = { isTop: true } as const;

/** The checks of the overlay's options, given to checkConfig by the builds that open the overlay. */
export const OVERLAY_RULES: Record<(typeof OVERLAY_OPTIONS)[number], Rule> = {
  isTop: BOOLEAN,
  left: LENGTH,
  top: LENGTH,
};

/** The defaults of the npm module's own options. */
export const MODULE_DEFAULTS = { form: 'popup' } as const;

/** The checks of the npm module's own options (its element reads them from attributes too). */
export const MODULE_RULES: Record<'serviceUrl' | 'form', Rule> = {
  serviceUrl: STRING,
  form: /* @__PURE__ */ oneOf(WIDGET_FORMS),
};

/**
 * The numbers and lists among the options the loader leaves to the service: the element reads an
 * attribute's text for them as a number (`max-file-size="1048576"`) or a list (`accept="mp4 webm"`).
 */
export const VALUE_RULES: Partial<Record<PageOption, Rule>> = {
  maxFileSize: NUMBER,
  accept: LIST,
  minDuration: NUMBER,
  maxDuration: NUMBER,
  sources: LIST,
};

/** The event handlers. */
export const HANDLERS = ['onSuccess', 'onFailure', 'onError', 'onProgress', 'onStateChange', 'onProcessed'] as const;
