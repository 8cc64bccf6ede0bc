import type { AppRecord } from '../auth/apps';
import { authenticateWidget } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { isOrigin } from '../net/urls';
import type { Params } from '../http/params';
import { chargePage } from '../quota/quotas';
import { type Video } from '../storage/videos';
import { SourceFileGetType, VideoStatus } from '../../shared/videoStatus';
import { decodeStrings } from '../../shared/i18n/checkStrings';
import type { WidgetStrings } from '../../shared/i18n/strings';
import { decodePageOptions, type PageOptions } from '../../shared/uploadPage';
import { languageOf, WIDGET_LANGUAGES, WIDGET_THEMES, type WidgetLanguage, type WidgetTheme } from '../../shared/widgetConfig';
import { WIDGET_OPTIONS } from '../../shared/widgetOptions';

/** A validated upload page request: everything the page needs besides its ticket and resume state. */
export interface PageRequest extends PageOptions {
  app: AppRecord;
  /** The secret the page was signed with: its ticket is bound to it, so a rotation or removal revokes both. */
  secret: string;
  video: Video;
  /** The config's `lang`, else the browser's first language (Accept-Language). */
  lang: WidgetLanguage;
  channel: string;
  /** Exact origin for postMessage and `frame-ancestors`. */
  hostOrigin: string;
}

/** The loader makes the channel random per open; a short or odd one is not ours. */
const CHANNEL = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * The host origin the page may trust: one of the app's `allowedOrigins` when it registered them
 * (the loader's report is then only a choice among them), else the reported origin itself.
 */
function trustedOrigin(app: AppRecord | undefined, reported: string): string | undefined {
  if (!isOrigin(reported)) return undefined;
  if (app?.allowedOrigins && !app.allowedOrigins.includes(reported)) return undefined;
  return reported;
}

/** A parameter of a query that may be wrong in any way: a repeated one reads as empty (the error page says what was wrong). */
function lenientValue(params: Params, name: string): string {
  try {
    return params.get(name)?.trim() ?? '';
  } catch {
    return '';
  }
}

/**
 * How the error page looks and speaks: as the uploader would (the valid `lang`, `theme` and
 * `strings`, even if another option was wrong; else the browser's language, the system's theme
 * and the language's own texts).
 */
export interface ErrorPageLook {
  lang: WidgetLanguage;
  theme: WidgetTheme;
  strings: WidgetStrings;
}

export function errorPageLook(params: Params, acceptLanguage: string | undefined): ErrorPageLook {
  const lang = lenientValue(params, 'lang');
  const theme = lenientValue(params, 'theme');
  const strings = decodeStrings(lenientValue(params, 'strings') || '{}');
  return {
    strings: strings.ok ? strings.strings : {},
    lang: (WIDGET_LANGUAGES as readonly string[]).includes(lang) ? (lang as WidgetLanguage) : languageOf(acceptLanguage ?? ''),
    theme: (WIDGET_THEMES as readonly string[]).includes(theme) ? (theme as WidgetTheme) : WIDGET_OPTIONS.theme.default,
  };
}

/**
 * Checks an upload page query in order of meaning: the signed values (101–104; the scoped token
 * only for its own video, the md5 Token unless the app requires scoped ones), the options
 * (101, 106), the host origin (108), then the video: this app's (105), within its page budget
 * (116, quota/quotas.ts), uploaded by the widget and still waiting for its file (107).
 */
export async function validatePageRequest(
  service: ServiceContext,
  params: Params,
  acceptLanguage: string | undefined,
): Promise<PageRequest> {
  const { app, secret } = authenticateWidget(service, params);
  const videoId = params.require('videoId');
  const decoded = decodePageOptions((name) => params.get(name));
  if (!decoded.ok) throw new ServiceError(decoded.problem.kind, decoded.problem.detail);
  const options = { ...decoded.options, lang: decoded.options.lang ?? languageOf(acceptLanguage ?? '') };
  const channel = params.require('channel');
  if (!CHANNEL.test(channel)) throw new ServiceError('INVALID_PARAMETER', 'channel must be 8 to 128 letters, digits, - or _');
  const reported = params.require('origin');
  if (!isOrigin(reported)) throw new ServiceError('INVALID_PARAMETER', 'origin must be an http(s) origin like https://example.com');
  const hostOrigin = trustedOrigin(app, reported);
  if (!hostOrigin) throw new ServiceError('NO_PERMISSION', "the page is not on one of the app's allowedOrigins");

  const video = await service.stores.videos.get(videoId);
  if (!video || video.appId !== app.appId) throw new ServiceError('UNKNOWN_VIDEO');
  await chargePage(service, app, video.id);
  if (video.sourceGetType !== SourceFileGetType.Upload)
    throw new ServiceError('WRONG_STATE', 'the video was registered for server-side download (SourceFileGetType 2)');
  if (video.status !== VideoStatus.NotUploaded) throw new ServiceError('WRONG_STATE', 'the video already has its file');
  return { ...options, app, secret, video, channel, hostOrigin };
}

/**
 * Where an error page reports its failure: a well-formed channel on the reported origin, which the
 * browser delivers to only when the window that opened or framed the page is of that origin.
 */
export interface NotifyTarget {
  channel: string;
  origin: string;
  videoId: string;
  /**
   * Whether the app trusts the origin (one of its `allowedOrigins`, or it lists none). An origin it
   * does not trust hears only what refused it (docs/security.md, "A refused origin").
   */
  trusted: boolean;
}

export function notifyTarget(service: ServiceContext, params: Params): NotifyTarget | undefined {
  const value = (name: string) => lenientValue(params, name);
  const channel = value('channel');
  const origin = value('origin');
  if (!CHANNEL.test(channel) || !isOrigin(origin)) return undefined;
  const trusted = trustedOrigin(service.apps.get(value('appId')), origin) !== undefined;
  return { channel, origin, videoId: value('videoId'), trusted };
}
