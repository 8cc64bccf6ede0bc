import {
  languageOf,
  type DeferredModuleConfig,
  type ModuleUploadConfig,
  type UploadWidgetError,
  type UploadWidgetHandle,
} from '../shared/widgetConfig';
import * as errorPage from './loader/errorPage';
import { openDeferred } from './loader/deferredConfig';
import { openWidget, type WidgetTarget } from './loader/openUpload';
import { MODULE_DEFAULTS, MODULE_RULES, OVERLAY_RULES } from './loader/optionRules';
import * as overlay from './loader/overlay';
import { openPopup } from './loader/popup';
import { LOADER_WORDS } from '../shared/i18n/loaderWords';
import { loaderTexts } from './loader/texts';

// Types only, named one by one: `export type *` made the bundled index.d.ts declare the option
// lists (WIDGET_LANGUAGES, UPLOAD_TYPES, …) as values the JS does not have (test/package.exports.test.ts).
export type {
  BaseUploadConfig,
  Container,
  DeferredConfig,
  DeferredModuleConfig,
  FileRefusal,
  ModuleOptions,
  ModuleUploadConfig,
  OverlayOptions,
  OverlayUploadConfig,
  PageOption,
  PopupUploadConfig,
  SignedOptions,
  UploadErrorInfo,
  UploadEndKind,
  UploadEventHandlers,
  UploadFailureCode,
  UploadFailureInfo,
  UploadFailureReason,
  UploadProcessedInfo,
  UploadProgressInfo,
  UploadState,
  UploadStateInfo,
  UploadSuccessInfo,
  UploadType,
  UploadWidgetError,
  UploadWidgetHandle,
  WidgetCode,
  WidgetForm,
  WidgetLanguage,
  WidgetTheme,
} from '../shared/widgetConfig';
export type { StringKey, WidgetStrings } from '../shared/i18n/strings';

/** Whether `done` rejected with the widget's own error: checks `name`, since `instanceof` fails across windows. */
export function isUploadWidgetError(error: unknown): error is UploadWidgetError {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'UploadWidgetError';
}

function serviceBase(value: unknown): string {
  if (typeof value !== 'string')
    throw new TypeError('openUpload: `serviceUrl` is required: the service\'s base URL, e.g. "https://video.example.com"');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`openUpload: \`serviceUrl\` must be an absolute URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('openUpload: `serviceUrl` must be an http or https URL');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The parts this module carries; it never asks for a `texts-<tag>` one, having every language's words. */
const part = ((name: 'overlay' | 'errorPage') => Promise.resolve({ overlay, errorPage }[name])) as unknown as WidgetTarget['part'];

/**
 * Opens the upload widget from a bundled app: `serviceUrl` says where the service is, `form`
 * picks the popup (default) or the overlay. Call it from a click so the popup is allowed; with
 * `config`, the signed options may arrive after the click (DeferredConfig).
 */
export function openUpload(config: ModuleUploadConfig | DeferredModuleConfig): UploadWidgetHandle {
  if (typeof config !== 'object' || config === null) throw new TypeError('openUpload: expected a configuration object');
  const { serviceUrl, form = MODULE_DEFAULTS.form, ...widgetConfig } = config;
  const [validForm, forms] = MODULE_RULES.form;
  if (!validForm(form)) throw new RangeError(`openUpload: \`form\` must be ${forms}, got ${JSON.stringify(form)}`);
  const target = {
    serviceBase: serviceBase(serviceUrl),
    form,
    popup: openPopup,
    overlay: overlay.openOverlay,
    overlayRules: OVERLAY_RULES,
    texts: (tag: string, strings: unknown) => {
      const lang = languageOf(tag);
      return loaderTexts(LOADER_WORDS[lang], lang, strings);
    },
    part,
  };
  return 'config' in widgetConfig ? openDeferred(widgetConfig, target) : openWidget(widgetConfig, target);
}
