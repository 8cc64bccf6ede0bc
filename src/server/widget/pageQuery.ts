import type { AppRecord } from '../auth/apps';
import { authenticateParams, WIDGET_NAMES } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { ApiError } from '../errors';
import type { Params } from '../http/params';
import { VideoStatus, type VideoRow } from '../storage/videos';
import type { UploadType, WidgetLanguage } from '../../shared/widgetConfig';

/** A validated upload page request: everything the page needs besides its ticket and resume state. */
export interface PageRequest {
  app: AppRecord;
  video: VideoRow;
  uploadType: UploadType;
  needHandleSpecial: boolean;
  /** The config's `lang`, else the browser's first language (Accept-Language). */
  lang: WidgetLanguage;
  channel: string;
  /** Exact origin for postMessage and `frame-ancestors`. */
  hostOrigin: string;
  form: 'popup' | 'overlay';
}

/** The loader makes the channel random per open; a short or odd one is not ours. */
const CHANNEL = /^[A-Za-z0-9_-]{8,128}$/;

export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * The host origin the page may trust: one of the app's `allowedOrigins` when it registered them
 * (the loader's report is then only a choice among them), else the reported origin itself.
 */
function trustedOrigin(app: AppRecord | undefined, reported: string): string | undefined {
  if (!isOrigin(reported)) return undefined;
  if (app?.allowedOrigins && !app.allowedOrigins.includes(reported)) return undefined;
  return reported;
}

function optionalOneOf<T extends string>(params: Params, name: string, allowed: readonly T[]): T | undefined {
  const raw = params.get(name)?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new ApiError('INVALID_PARAMETER', `${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

function oneOf<T extends string>(params: Params, name: string, allowed: readonly T[], fallback?: T): T {
  const value = optionalOneOf(params, name, allowed) ?? fallback;
  if (value === undefined) throw new ApiError('MISSING_PARAMETER', name);
  return value;
}

/** The browser's first language preference: Chinese when it is a `zh` tag, else English. */
function browserLanguage(acceptLanguage: string | undefined): WidgetLanguage {
  return /^\s*zh\b/i.test(acceptLanguage ?? '') ? 'zh-CN' : 'en';
}

/**
 * Checks an upload page query in order of meaning: the signed values (101–104), the options
 * (101, 106), the host origin (108), then the video: this app's (105), uploaded by the widget and
 * still waiting for its file (107).
 */
export function validatePageRequest(service: ServiceContext, params: Params, acceptLanguage: string | undefined): PageRequest {
  const app = authenticateParams(service, params, WIDGET_NAMES);
  const videoId = params.require('videoId');
  const uploadType = oneOf<UploadType>(params, 'uploadType', ['flash', 'silverlight'], 'flash');
  const needHandleSpecial = oneOf(params, 'needHandleSepcial', ['true', 'false'], 'false') === 'true';
  const lang = optionalOneOf<WidgetLanguage>(params, 'lang', ['en', 'zh-CN']) ?? browserLanguage(acceptLanguage);
  const channel = params.require('channel');
  if (!CHANNEL.test(channel)) throw new ApiError('INVALID_PARAMETER', 'channel must be 8 to 128 letters, digits, - or _');
  const form = oneOf(params, 'form', ['popup', 'overlay'] as const);
  const reported = params.require('origin');
  if (!isOrigin(reported)) throw new ApiError('INVALID_PARAMETER', 'origin must be an http(s) origin like https://example.com');
  const hostOrigin = trustedOrigin(app, reported);
  if (!hostOrigin) throw new ApiError('NO_PERMISSION', 'the page is not on one of the app\'s allowedOrigins');

  const video = service.videos.get(videoId);
  if (!video || video.app_id !== app.appId) throw new ApiError('UNKNOWN_VIDEO');
  if (video.source_get_type !== 1) throw new ApiError('WRONG_STATE', 'the video was registered for server-side download (SourceFileGetType 2)');
  if (video.status !== VideoStatus.NotUploaded) throw new ApiError('WRONG_STATE', 'the video already has its file');
  return { app, video, uploadType, needHandleSpecial, lang, channel, hostOrigin, form };
}

/** Where an error page may report its failure: only a well-formed channel on a trusted origin. */
export interface NotifyTarget {
  channel: string;
  origin: string;
  videoId: string;
}

export function notifyTarget(service: ServiceContext, params: Params): NotifyTarget | undefined {
  const value = (name: string) => {
    try {
      return params.get(name)?.trim() ?? '';
    } catch {
      return ''; // a repeated parameter: the error page says so; nothing is posted
    }
  };
  const channel = value('channel');
  if (!CHANNEL.test(channel)) return undefined;
  const origin = trustedOrigin(service.apps.get(value('appId')), value('origin'));
  return origin ? { channel, origin, videoId: value('videoId') } : undefined;
}
