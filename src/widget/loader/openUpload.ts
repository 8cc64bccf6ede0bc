import {
  WIDGET_LANGUAGES,
  type UploadEndKind,
  type UploadFailureInfo,
  type UploadSuccessInfo,
  type UploadWidgetError,
  type UploadWidgetHandle,
  type WidgetForm,
} from '../../shared/widgetConfig';
import type { WidgetContainer } from './container';
import type * as ErrorPage from './errorPage';
import type { PageMessage, WithoutEnvelope } from '../../shared/messages';
import { linkToPage, type PageLink } from './messaging';
import type * as Overlay from './overlay';
import type { openOverlay } from './overlay';
import { uploadPageUrl } from '../../shared/uploadPage';
import { randomChannel } from './pageUrl';
import type { openPopup } from './popup';
import type { LoaderTexts } from './texts';
import { OVERLAY_DEFAULTS, RULES } from './optionRules';
import { checkConfig, type OverlayRules } from './validateConfig';

/**
 * The parts of the loader that not every open needs, each its own ES module beside the loaders
 * (dist/Scripts/UploadWidget/<name>.js): the overlay (every overlay open, and the popup's
 * fallback when a blocker refuses the window), the error page (a refused configuration) and the
 * loader's words in the widget's language (every open).
 */
type LoaderParts = {
  overlay: typeof Overlay;
  errorPage: typeof ErrorPage;
} & {
  /**
   * One language's words, asked for by a language tag: the service answers with the words of the
   * language it picks for the tag (languageOf), so the loader carries neither every language's
   * words nor the choice among them.
   */
  [name: `texts-${string}`]: { texts(strings: unknown): LoaderTexts };
};

export interface WidgetTarget {
  /** The service's base URL, no trailing slash. */
  serviceBase: string;
  form: WidgetForm;
  /**
   * A part the loader needs only sometimes: the script loaders import it from the service when
   * needed, so their bytes stay within budget; the npm module hands over its bundled copy.
   */
  part: <K extends keyof LoaderParts>(name: K) => Promise<LoaderParts[K]>;
  /** The checks of the overlay's options, in the builds that take them (the overlay form). */
  overlayRules?: OverlayRules | undefined;
  /** The popup, in the builds that open it (the popup form). */
  popup?: typeof openPopup | undefined;
  /** The overlay, when this build carries it: opened at once; without it, the overlay part is imported when needed. */
  overlay?: typeof openOverlay | undefined;
  /** The loader's words for a language tag, when this build carries every language's; without them, the tag's `texts-<tag>` part is imported at each open. */
  texts?: ((tag: string, strings: unknown) => LoaderTexts) | undefined;
}

/** One throwing handler must not break the widget or the other handlers. */
export function emit<T>(handler: ((info: T) => void) | undefined, info: T): void {
  if (!handler) return;
  try {
    handler(info);
  } catch (error) {
    console.error('openUpload: an event handler threw', error);
  }
}

/**
 * Checks the configuration, opens the container (popup, or overlay when asked or when the popup is
 * blocked) and relays the page's events to the handlers. Runs synchronously up to `window.open`,
 * so calling it from a click keeps the popup allowed.
 */
export function openWidget(raw: unknown, target: WidgetTarget, win: Window = window): UploadWidgetHandle {
  const check = checkConfig(raw, target.form, target.overlayRules);
  const { handlers, videoId } = check;
  const config = check.ok ? check.config : undefined;
  // checkConfig has thrown unless `raw` is an object.
  const { lang, strings } = raw as { lang?: unknown; strings?: unknown };
  // The configured `lang` when it is one we speak (even when another option is wrong, as on the service), else the browser's tag.
  const chosen = WIDGET_LANGUAGES.includes(lang as never) ? (lang as string) : win.navigator.language;
  let texts = target.texts?.(chosen, strings);
  // Resolves with the words, which whatever shows them waits for. A widget closed before they
  // come (their part is as far away as the page) says so by its reason alone: the loaders'
  // bytes have no room for a second copy of the words.
  const words = texts ? Promise.resolve(texts) : target.part(`texts-${chosen}`).then((part) => (texts = part.texts(strings)));
  words.catch(() => {});
  const closedMessage = () => texts?.closed ?? 'closed';
  const channel = randomChannel();
  // Empty without a valid configuration: the container stays blank for the loader's own error page.
  const pageUrl = (host: Window, form: WidgetForm) =>
    config ? uploadPageUrl(target.serviceBase, config, RULES, channel, host.location.origin, form) : '';

  let closed = false;
  let succeeded = false;
  // Whether the page has said anything yet.
  let heard = false;
  // The page reports whether bytes are moving; × or Escape then asks inside the page first.
  let busy = false;
  // Both unset while the overlay is still coming from the service.
  let container: WidgetContainer | undefined;
  let link: PageLink | undefined;

  let resolveDone!: (info: UploadSuccessInfo) => void;
  let rejectDone!: (reason: UploadWidgetError) => void;
  const done = new Promise<UploadSuccessInfo>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A host page that never looks at `done` must not get an unhandled rejection in its console.
  done.catch(() => {});
  // The problem the widget ends with if it closes without a success: the last one reported that
  // no upload has overcome since (progress clears it).
  let problem: [kind: UploadEndKind, message?: string, code?: UploadWidgetError['code']] = ['closed'];
  const end = () => {
    const [kind, message = closedMessage(), code] = problem;
    rejectDone(Object.assign(new Error(message), { name: 'UploadWidgetError' as const, kind, code, videoId }));
  };

  // onFailure fires once per open: its first failure, or the close.
  const fail = (info: UploadFailureInfo) => {
    emit(handlers.onFailure, info);
    handlers.onFailure = undefined;
  };
  // A close ends the widget: later messages are not heard, and without a success it is a failure
  // (reported now unless a failure was reported before).
  const close = () => {
    if (closed) return;
    closed = true;
    link?.stop();
    container?.remove();
    if (succeeded) return;
    fail({ videoId, reason: 'closed', message: closedMessage() });
    end();
  };
  // What the loader refuses itself ends the open: the host hears it at once, and the person sees
  // the loader's error page in the container, once both are there.
  let refusal: UploadFailureInfo | undefined;
  const show = () =>
    refusal && container && void target.part('errorPage').then((part) => part.showErrorPage(container!, refusal!, words, channel, close));
  // Reported as the service's own refusals are (reason `validation`), which ends the open.
  const refuse = (problem: Pick<UploadFailureInfo, 'code' | 'message' | 'hint'>) => {
    if (heard) return;
    relay({ type: 'failure', info: (refusal = { videoId, reason: 'validation', ...problem }) });
    show();
  };
  // × or Escape while bytes move: the page asks, and answers with `close` if the person confirms.
  const requestClose = (now?: boolean) => (busy && !now ? link?.tell('askClose') : close());

  // The page's messages, and the loader's own refusal as if the page had sent it.
  const relay = (message: WithoutEnvelope<PageMessage>) => {
    heard = true;
    switch (message.type) {
      case 'success':
        if (succeeded) return;
        succeeded = true;
        emit(handlers.onSuccess, message.info);
        resolveDone(message.info);
        return;
      case 'failure':
        problem = ['failure', message.info.message, message.info.code];
        fail(message.info);
        // The service refused the configuration: nothing can be uploaded in this open.
        if (message.info.reason === 'validation') end();
        return;
      case 'error':
        problem = ['error', message.info.message];
        emit(handlers.onError, message.info);
        return;
      case 'progress':
        problem = ['closed'];
        emit(handlers.onProgress, message.info);
        return;
      case 'state':
        emit(handlers.onStateChange, message.info);
        return;
      case 'processed':
        emit(handlers.onProcessed, message.info);
        return;
      case 'uploading':
        busy = message.busy;
        return;
      case 'close':
        close();
        return;
      // The page is up; the loader needs nothing more from that.
      case 'ready':
    }
  };

  const start = (opened: WidgetContainer) => {
    // Closed from code while the overlay was loading: it never shows.
    if (closed) return opened.remove();
    container = opened;
    link = linkToPage(opened, new URL(target.serviceBase).origin, channel, relay);
    show();
  };

  // The popup form refuses the layout options, so its fallback layer is centred and takes isTop's
  // default; the layer also learns the sources, for the iframe's permissions.
  const openLayer = (open: typeof openOverlay, shown: LoaderTexts) =>
    start(open(win, config?.isTop ?? OVERLAY_DEFAULTS.isTop, config ?? {}, shown, (host) => pageUrl(host, 'overlay'), requestClose));
  const popup = target.form === 'popup' && target.popup?.(win, pageUrl(win, 'popup'), close);
  if (popup) start(popup);
  else if (target.overlay && texts) openLayer(target.overlay, texts);
  // Blocked: the overlay needs no permission, so the user still gets the uploader. Should its code
  // not arrive, the widget ends as closed: the page has no other way to learn that nothing opened.
  else Promise.all([target.part('overlay'), words]).then(([{ openOverlay }, shown]) => openLayer(openOverlay, shown), close);

  if (check.ok)
    // A page that has not said it is there within 10 s did not come: a `serviceUrl` that reaches
    // nothing, a service that is down; the person may see only the browser's own error page.
    // Without the words (their part did not come either), the code is the message. After a close
    // it changes nothing: the failure and `done` are settled, and nothing is shown.
    win.setTimeout(() => refuse(texts?.unanswered ?? { code: 'unanswered', message: 'unanswered' }), 1e4);
  // After returning, so a handler may already use the handle.
  else queueMicrotask(() => refuse(check.problem));

  return { close, done };
}
