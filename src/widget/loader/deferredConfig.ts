import {
  languageOf,
  WIDGET_LANGUAGES,
  type SignedOptions,
  type UploadFailureInfo,
  type UploadSuccessInfo,
  type UploadWidgetError,
  type UploadWidgetHandle,
  type WidgetCode,
  type WidgetLanguage,
} from '../../shared/widgetConfig';
import type { WidgetContainer } from './container';
import { emit, openWidget, type WidgetTarget } from './openUpload';
import { OVERLAY_DEFAULTS } from './optionRules';
import type { openOverlay } from './overlay';
import type { openPopup } from './popup';
import { checkConfig } from './validateConfig';
import { showErrorPage, writeWaitingPage } from './errorPage';
import { randomChannel } from './pageUrl';

/** Stand-ins for the signed options while `config()` runs, so the rest is checked inside the click. */
const PENDING = { appId: '-', timestamp: '-', token: '-', videoId: '-' };

const widgetError = (message: string, kind: UploadWidgetError['kind'], code?: UploadWidgetError['code']): UploadWidgetError =>
  Object.assign(new Error(message), { name: 'UploadWidgetError' as const, kind, code, videoId: '' });

type Opener = Required<Pick<WidgetTarget, 'popup' | 'overlay'>>;

/** The npm module's target: it carries every part and every language's words. */
type ModuleTarget = WidgetTarget & Opener & Required<Pick<WidgetTarget, 'texts'>>;

/**
 * `openUpload` with `config` (DeferredConfig), in the npm module only: the script loaders stay
 * within their byte budget without it. The container opens at once, inside the click, with a
 * waiting line; once `config()` resolves, the widget opens in that same container (openWidget
 * gets it back from its popup or overlay opener) exactly as if it had been given the whole
 * configuration. A rejection shows the loader's error page in that container, until the person
 * closes it, and reports reason `config` at once.
 */
export function openDeferred(raw: Record<string, unknown>, target: ModuleTarget, win: Window = window): UploadWidgetHandle {
  const { config, ...given } = raw;
  if (typeof config !== 'function')
    throw new TypeError('openUpload: `config` must be a function returning a promise of the signed options');
  // Either could be meant to win: refused, as the types refuse it.
  for (const name in PENDING)
    if (name in given) throw new TypeError(`openUpload: \`${name}\` comes from \`config()\` when \`config\` is given, not from both`);
  // Programmer errors (an unknown option, a handler that is not a function) throw here, as without `config`.
  const first = checkConfig({ ...given, ...PENDING }, target.form, target.overlayRules);
  const lang = WIDGET_LANGUAGES.includes(given.lang as never) ? (given.lang as WidgetLanguage) : languageOf(win.navigator.language);
  const texts = target.texts(lang, given.strings);
  const { configFailed: failed } = texts;

  let resolveDone!: (info: UploadSuccessInfo) => void;
  let rejectDone!: (reason: UploadWidgetError) => void;
  const done = new Promise<UploadSuccessInfo>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  done.catch(() => {});

  let inner: UploadWidgetHandle | undefined;
  let ended = false;
  const end = (error: UploadWidgetError, failure: UploadFailureInfo) => {
    if (ended || inner) return;
    ended = true;
    emit(first.handlers.onFailure, failure);
    rejectDone(error);
  };
  // Before the widget takes over, a close removes the container (also the error page's) and ends
  // the open, unless it has ended already.
  const closeBefore = () => {
    if (inner) return;
    container.remove();
    end(widgetError(texts.closed, 'closed'), { videoId: '', reason: 'closed', message: texts.closed });
  };
  // The container's own close (×, Escape, the popup closed by hand): ours until the widget takes over.
  let onClose: (now?: boolean) => void = closeBefore;

  const layout = target.form === 'overlay' && first.ok ? first.config : undefined;
  const popup = target.form === 'popup' ? target.popup(win, '', () => onClose(true)) : null;
  const container: WidgetContainer =
    popup ??
    target.overlay(
      win,
      layout?.isTop ?? OVERLAY_DEFAULTS.isTop,
      layout ?? {},
      texts,
      () => '',
      (now) => onClose(now),
    );
  const page = container.page();
  if (page) writeWaitingPage(page.document, texts);

  // openWidget opens "its" container: the one already open, pointed at the upload page (or left
  // blank for the loader's error page when the delivered options are refused).
  const show = (url: string) => {
    if (url) container.page()?.location.replace(url);
    return container;
  };
  const reuse: Opener = {
    popup: ((_win, url, onClosedByUser) => {
      if (!popup) return null;
      onClose = onClosedByUser;
      return show(url);
    }) satisfies typeof openPopup,
    overlay: ((_win, _isTop, _layout, _texts, pageUrl, onCloseRequest) => {
      onClose = onCloseRequest;
      return show(pageUrl(container.host));
    }) satisfies typeof openOverlay,
  };

  (config as () => Promise<SignedOptions>)().then(
    (signed) => {
      if (ended) return;
      inner = openWidget({ ...given, ...signed }, { ...target, ...reuse }, win);
      inner.done.then(resolveDone, rejectDone);
    },
    (error: unknown) => {
      if (ended) return;
      console.error('openUpload: `config()` rejected', error);
      const failure: UploadFailureInfo = {
        videoId: '',
        reason: 'config',
        code: 'config' satisfies WidgetCode,
        message: failed,
        hint: `config() rejected: ${String(error)}`,
      };
      end(widgetError(failed, 'failure', 'config'), failure);
      // The person learns it in the window that was waiting, which stays until they close it.
      void showErrorPage(container, { ...failure, hint: undefined }, Promise.resolve(texts), randomChannel(), closeBefore);
    },
  );

  return { close: () => (inner ? inner.close() : closeBefore()), done };
}
