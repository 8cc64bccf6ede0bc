import type { AuthMsg, GetVideoReply, VideoListReply } from '../shared/apiReplies';
import { RESULT_CODES } from '../shared/resultCodes';
import { ApiError } from './errors';
import { signScopedToken, signToken, timestampNow } from './signing';
import { SourceFileGetType } from '../shared/videoStatus';

/** The part of `fetch` the client uses; the global `fetch` fits, and so do most wrappers of it. */
export type FetchLike = (
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface ClientOptions {
  /** The service's base URL, e.g. "https://video.example.com". */
  baseUrl: string;
  appId: string;
  /** Stays in this process: only Tokens derived from it are sent. */
  appSecret: string;
  /** @default globalThis.fetch */
  fetch?: FetchLike;
}

/** The spec's Post model. Type 1: the file comes through the widget; type 2: the service downloads `SourceFilePath`. */
export type PostVideoModel = {
  /** Required; cut to 50 characters by the service. */
  VideoTitle: string;
  Description?: string;
  /** Comma-separated, at most five. */
  Tags?: string;
  Actors?: string;
  CreateUser?: string;
} & (
  | { SourceFileGetType: typeof SourceFileGetType.Upload; SourceFilePath?: undefined }
  | { SourceFileGetType: typeof SourceFileGetType.Download; SourceFilePath: string }
);

export interface ListUserVideosQuery {
  createUser: string;
  /** From 1. @default 1 */
  pageIndex?: number;
  /** 1 to 100. @default 10 */
  pageSize?: number;
}

export interface ListUserVideosByAIdQuery extends ListUserVideosQuery {
  /** The AppId of the system that registered the videos: this app or one of its `readableApps`. */
  aId: string;
}

/** What the app's page passes to `openUpload` with its own handlers; all strings, as the widget requires. */
export interface WidgetAuth {
  appId: string;
  timestamp: string;
  token: string;
  videoId: string;
}

export interface VideoClient {
  /** Registers a video; resolves to its VideoId. */
  postVideo(model: PostVideoModel): Promise<string>;
  getVideo(id: string): Promise<GetVideoReply>;
  /** The calling app's videos by `createUser`, newest first. */
  listUserVideos(query: ListUserVideosQuery): Promise<VideoListReply>;
  /** The videos app `aId` registered for `createUser`. */
  listUserVideosByAId(query: ListUserVideosByAIdQuery): Promise<VideoListReply>;
  /**
   * A freshly signed widget config for one video (valid for 600 s): hand it to the page. Its
   * `token` is the scoped widget token, which opens this video's upload page only and is refused
   * by the API, so the browser cannot use it to list, register or read videos.
   */
  widgetConfig(videoId: string): WidgetAuth;
}

const MAX_PAGE_SIZE = 100;
/** The Post model's fields; any other key is a typo the service would silently ignore. */
const POST_FIELDS = ['VideoTitle', 'Description', 'Tags', 'Actors', 'CreateUser', 'SourceFileGetType', 'SourceFilePath'];

const fail = (message: string) => new TypeError(`open-video-upload/sdk: ${message}`);

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw fail(`\`${name}\` must be a non-empty string`);
  return value;
}

function pageNumber(value: unknown, name: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`open-video-upload/sdk: \`${name}\` must be a whole number from 1 to ${max}, got ${String(value)}`);
  }
  return String(value);
}

function serviceBase(value: unknown): string {
  const text = requireText(value, 'baseUrl');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(`\`baseUrl\` must be an absolute http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`\`baseUrl\` must be an http or https URL, got "${url.protocol}"`);
  if (url.search || url.hash || url.username || url.password) throw fail('`baseUrl` must carry no query, fragment or credentials');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The reply's body when its ResultCode is "1"; every other outcome as an ApiError. */
async function readReply<T>(reply: Promise<{ status: number; text(): Promise<string> }>, what: string): Promise<T> {
  let status = 0;
  let text: string;
  try {
    const response = await reply;
    status = response.status;
    text = await response.text();
  } catch (cause) {
    throw new ApiError(
      'network',
      `${what}: no reply from the service (${cause instanceof Error ? cause.message : String(cause)})`,
      status,
      { cause },
    );
  }
  let body: { AuthMsg?: Partial<AuthMsg> } | null;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = null;
  }
  const result = body?.AuthMsg;
  if (typeof result?.ResultCode !== 'string')
    throw new ApiError('invalid-reply', `${what}: the reply (HTTP ${status}) is not the API's JSON`, status);
  if (result.ResultCode !== RESULT_CODES.OK.code)
    throw new ApiError(result.ResultCode, `${what}: ${result.ResultMessage ?? 'refused'}`, status);
  return body as T;
}

/**
 * A client for the service's HTTP API, for an app's backend: it signs every call with a fresh
 * Timestamp and Token. Arguments are checked before any request; a refused call rejects with
 * an {@link ApiError}.
 */
export function createClient(options: ClientOptions): VideoClient {
  if (typeof options !== 'object' || options === null) throw fail('expected an options object { baseUrl, appId, appSecret }');
  const base = serviceBase(options.baseUrl);
  const appId = requireText(options.appId, 'appId');
  const appSecret = requireText(options.appSecret, 'appSecret');
  const send: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  if (typeof send !== 'function') throw fail('`fetch` must be a function');

  const signed = () => {
    const Timestamp = timestampNow();
    return { AppId: appId, Timestamp, Token: signToken(Timestamp, appSecret) };
  };
  const get = <T>(path: string, query: Record<string, string | undefined>) => {
    const params = new URLSearchParams(signed());
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
    return readReply<T>(send(`${base}${path}?${params}`, { method: 'GET' }), path);
  };
  const listQuery = (query: ListUserVideosQuery) => {
    if (typeof query !== 'object' || query === null) throw fail('expected a query object { createUser, pageIndex?, pageSize? }');
    return {
      createUser: requireText(query.createUser, 'createUser'),
      PageIndex: pageNumber(query.pageIndex, 'pageIndex', Number.MAX_SAFE_INTEGER),
      PageSize: pageNumber(query.pageSize, 'pageSize', MAX_PAGE_SIZE),
    };
  };

  return {
    async postVideo(model) {
      if (typeof model !== 'object' || model === null) throw fail('expected a Post model object');
      const unknown = Object.keys(model).find((key) => !POST_FIELDS.includes(key));
      if (unknown !== undefined) throw fail(`\`${unknown}\` is not a field of the Post model (${POST_FIELDS.join(', ')})`);
      requireText(model.VideoTitle, 'VideoTitle');
      if (model.SourceFileGetType !== SourceFileGetType.Upload && model.SourceFileGetType !== SourceFileGetType.Download)
        throw fail('`SourceFileGetType` must be 1 (upload widget) or 2 (server download)');
      if (model.SourceFileGetType === SourceFileGetType.Download) requireText(model.SourceFilePath, 'SourceFilePath');
      const form = new URLSearchParams(signed());
      for (const [name, value] of Object.entries(model)) if (value !== undefined) form.set(name, String(value));
      const reply = await readReply<{ VideoId: string }>(
        send(`${base}/Api/Video/Post`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        }),
        '/Api/Video/Post',
      );
      return reply.VideoId;
    },
    async getVideo(id) {
      return get<GetVideoReply>('/Api/Video/Get', { Id: requireText(id, 'id') });
    },
    async listUserVideos(query) {
      return get<VideoListReply>('/Api/Video/GetUserVideoList', listQuery(query));
    },
    async listUserVideosByAId(query) {
      const checked = listQuery(query);
      return get<VideoListReply>('/Api/Video/GetUserVideoListByAId', { ...checked, aId: requireText(query.aId, 'aId') });
    },
    widgetConfig(videoId) {
      const id = requireText(videoId, 'videoId');
      const timestamp = timestampNow();
      return { appId, timestamp, token: signScopedToken(appId, timestamp, id, appSecret), videoId: id };
    },
  };
}
