import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Everything the service reads from its environment, checked once at start-up. */
export interface ServiceConfig {
  /** @default 8080 (env `PORT`; 0 picks a free port, as the tests do) */
  port: number;
  /** A connection silent this long in both directions is closed: a client that stops reading a media file mid-reply would otherwise hold its socket and file open for ever. @default 120 000 (env `HTTP_IDLE_TIMEOUT_MS`) */
  httpIdleTimeoutMs: number;
  /** @default '127.0.0.1' (env `HOST`) */
  host: string;
  /** SQLite file, uploads and media live here. @default './data' (env `DATA_DIR`) */
  dataDir: string;
  /** The address browsers and apps use to reach the service, no trailing slash. @default `http://localhost:${port}` (env `PUBLIC_URL`) */
  publicUrl: string;
  /** JSON array of apps; without it a demo app is made in the data directory. (env `APPS_FILE`) */
  appsFile: string | undefined;
  /** Time zone of `CreateDate`. @default 'Asia/Shanghai' (env `TIME_ZONE`) */
  timeZone: string;
  /** Lets server-side download reach private and loopback addresses, for local tests only. @default false (env `SOURCE_URL_ALLOW_PRIVATE=1`) */
  sourceUrlAllowPrivate: boolean;
  /** Largest file for `uploadType` flash (or absent). @default 2 GiB (env `MAX_UPLOAD_BYTES_FLASH`) */
  maxUploadBytesFlash: number;
  /** Largest file for `uploadType` silverlight. @default 6 GiB (env `MAX_UPLOAD_BYTES_SILVERLIGHT`) */
  maxUploadBytesSilverlight: number;
  /** Processing jobs (downloads, transcodes) run at once; each ffmpeg gets cores ÷ this many threads. @default 2 (env `PROCESSING_CONCURRENCY`) */
  processingConcurrency: number;
  /** @default 'ffmpeg', found on PATH (env `FFMPEG_PATH`) */
  ffmpegPath: string;
  /** @default 'ffprobe', found on PATH (env `FFPROBE_PATH`) */
  ffprobePath: string;
  /**
   * Largest picture (width × height) a source may have; a larger one ends in status 7 without a
   * frame being decoded, since one frame of a tiny file can need gigabytes. @default 35 389 440
   * (8192×4320, 8K) (env `MAX_SOURCE_PIXELS`)
   */
  maxSourcePixels: number;
  /** One transcode (probe, renditions, pictures); past it the video ends in status 7. A backstop against inputs that decode far slower than their size suggests. @default 86 400 000 (24 h) (env `TRANSCODE_TIMEOUT_MS`) */
  transcodeTimeoutMs: number;
  /** The widget's build output (`npm run build`), served under /Scripts/UploadWidget and /UploadWidget/assets. @default `<project>/dist` (env `DIST_DIR`) */
  distDir: string;
  /** Largest file a server-side download (type 2) may store. @default the silverlight upload limit (env `DOWNLOAD_MAX_BYTES`) */
  downloadMaxBytes: number;
  /** A whole server-side download, first DNS lookup to last byte. @default 3 600 000 (1 h) (env `DOWNLOAD_TIMEOUT_MS`) */
  downloadTimeoutMs: number;
  /** Longest silence from a source server: connecting, awaiting headers, or between body bytes. @default 30 000 (env `DOWNLOAD_IDLE_TIMEOUT_MS`) */
  downloadIdleTimeoutMs: number;
  /** Status callback attempts before it is given up. @default 10 (env `CALLBACK_MAX_ATTEMPTS`) */
  callbackMaxAttempts: number;
  /** First retry delay of a status callback; later ones grow from it (3x, 12x, 60x, 180x, then 360x). @default 10 000 (env `CALLBACK_RETRY_BASE_MS`) */
  callbackRetryBaseMs: number;
  /** One callback request, connect to reply headers. @default 10 000 (env `CALLBACK_TIMEOUT_MS`) */
  callbackTimeoutMs: number;
  /** Callback requests in flight at once. @default 4 (env `CALLBACK_CONCURRENCY`) */
  callbackConcurrency: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const GIB = 1024 ** 3;

/** Two levels above src/server: the build output is found beside package.json, whatever the working directory. */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** `1` or `0` (or unset); anything else is refused, since `true` silently meaning off is a trap. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

function timeZone(raw: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return raw;
  } catch {
    throw new ConfigError(`TIME_ZONE "${raw}" is not an IANA time zone`);
  }
}

function publicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_URL must be http or https');
  return url.href.replace(/\/+$/, '');
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  return {
    port,
    httpIdleTimeoutMs: integer(env, 'HTTP_IDLE_TIMEOUT_MS', 120_000, 1, 3_600_000),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    publicUrl: publicUrl(env.PUBLIC_URL || `http://localhost:${port}`),
    appsFile: env.APPS_FILE || undefined,
    timeZone: timeZone(env.TIME_ZONE || 'Asia/Shanghai'),
    sourceUrlAllowPrivate: flag(env, 'SOURCE_URL_ALLOW_PRIVATE'),
    maxUploadBytesFlash: integer(env, 'MAX_UPLOAD_BYTES_FLASH', 2 * GIB, 1, Number.MAX_SAFE_INTEGER),
    maxUploadBytesSilverlight: integer(env, 'MAX_UPLOAD_BYTES_SILVERLIGHT', 6 * GIB, 1, Number.MAX_SAFE_INTEGER),
    processingConcurrency: integer(env, 'PROCESSING_CONCURRENCY', 2, 1, 64),
    ffmpegPath: env.FFMPEG_PATH || 'ffmpeg',
    ffprobePath: env.FFPROBE_PATH || 'ffprobe',
    // ffmpeg's max_pixels option stops at INT_MAX.
    maxSourcePixels: integer(env, 'MAX_SOURCE_PIXELS', 8192 * 4320, 1, 2_147_483_647),
    transcodeTimeoutMs: integer(env, 'TRANSCODE_TIMEOUT_MS', 86_400_000, 1, 7 * 86_400_000),
    distDir: env.DIST_DIR ? resolve(env.DIST_DIR) : resolve(PROJECT_ROOT, 'dist'),
    downloadMaxBytes: integer(
      env,
      'DOWNLOAD_MAX_BYTES',
      integer(env, 'MAX_UPLOAD_BYTES_SILVERLIGHT', 6 * GIB, 1, Number.MAX_SAFE_INTEGER),
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    downloadTimeoutMs: integer(env, 'DOWNLOAD_TIMEOUT_MS', 3_600_000, 1, 7 * 24 * 3_600_000),
    downloadIdleTimeoutMs: integer(env, 'DOWNLOAD_IDLE_TIMEOUT_MS', 30_000, 1, 3_600_000),
    callbackMaxAttempts: integer(env, 'CALLBACK_MAX_ATTEMPTS', 10, 1, 100),
    callbackRetryBaseMs: integer(env, 'CALLBACK_RETRY_BASE_MS', 10_000, 1, 3_600_000),
    callbackTimeoutMs: integer(env, 'CALLBACK_TIMEOUT_MS', 10_000, 1, 600_000),
    callbackConcurrency: integer(env, 'CALLBACK_CONCURRENCY', 4, 1, 64),
  };
}
