import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isQuotaValue, quotaRule, type AppQuota } from './auth/quota';
import { LOG_LEVELS, isLogLevel, type LogLevel } from './log';
import { PROJECT_ROOT } from './project';
import { publicAddressesOnly } from './net/addressPolicy';
import { bareHostname } from './net/vettedHost';

/** Everything the service reads from its environment, checked once at start-up. */
export interface ServiceConfig {
  /** @default 8080 (env `PORT`; 0 picks a free port, as the tests do) */
  port: number;
  /** A connection silent this long in both directions is closed: a client that stops reading a media file mid-reply would otherwise hold its socket and file open for ever. @default 120 000 (env `HTTP_IDLE_TIMEOUT_MS`) */
  httpIdleTimeoutMs: number;
  /** @default '127.0.0.1' (env `HOST`) */
  host: string;
  /** SQLite file, uploads and media live here (with S3, only the SQLite file and scratch space for ffmpeg). @default './data' (env `DATA_DIR`) */
  dataDir: string;
  /** postgres://… selects PostgreSQL in place of SQLite in DATA_DIR. (env `DATABASE_URL`) */
  databaseUrl: string | undefined;
  /**
   * The address browsers and apps use to reach the service, no trailing slash. Port 0 in it (the
   * default with `PORT=0`) stands for the port the service gets, filled in before anything reads it.
   * @default `http://localhost:${port}` (env `PUBLIC_URL`)
   */
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
  /** Largest tus PATCH body the uploader sends (a proxy in front may cap bodies); 0 sends the file in one request. @default 0 (env `UPLOAD_CHUNK_BYTES`) */
  uploadChunkBytes: number;
  /** Transcodes run at once (the transcode pool); each ffmpeg gets cores ÷ this many threads. @default 2 (env `PROCESSING_CONCURRENCY`) */
  processingConcurrency: number;
  /**
   * Server-side downloads run at once (the download pool, apart from the transcodes, so slow
   * sources never hold a transcode's slot). A download mostly waits on the network, so it needs
   * no core of its own. @default 2 (env `DOWNLOAD_CONCURRENCY`)
   */
  downloadConcurrency: number;
  /**
   * Jobs one app may hold at once in each pool of an instance (downloads, transcodes), so one
   * app's queue or slow sources cannot take every slot. Undefined: half of each pool, at least 1
   * (docs/processing.md#fair-scheduling). (env `APP_MAX_RUNNING_JOBS`)
   */
  appMaxRunningJobs: number | undefined;
  /**
   * How long a running job stays its instance's without a sign of life; the instance renews it
   * every third of this. A job whose instance died is taken up by another once it runs out.
   * @default 60 000 (env `JOB_LEASE_MS`)
   */
  jobLeaseMs: number;
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
  /**
   * The least a download must bring, on average over every {@link downloadRateWindowMs} from its
   * first request on; under it the download ends in status 4 (`too-slow`). Catches a source that
   * trickles just often enough to beat the idle timeout. 0 turns it off. @default 16 384 (env
   * `DOWNLOAD_MIN_BYTES_PER_S`)
   */
  downloadMinBytesPerS: number;
  /** The sliding window over which {@link downloadMinBytesPerS} is averaged. @default 30 000 (env `DOWNLOAD_RATE_WINDOW_MS`) */
  downloadRateWindowMs: number;
  /**
   * Lets status callbacks reach loopback and private addresses (checked after DNS, and the
   * checked address is the one connected to). An APPS_FILE entry mistyped or planted would
   * otherwise make the service POST into its own network. @default true while PUBLIC_URL is
   * itself a loopback or private address (local development), else false (env
   * `CALLBACK_URL_ALLOW_PRIVATE=1`/`0`)
   */
  callbackUrlAllowPrivate: boolean;
  /** Status callback attempts before it is given up. @default 10 (env `CALLBACK_MAX_ATTEMPTS`) */
  callbackMaxAttempts: number;
  /** First retry delay of a status callback; later ones grow from it (3x, 12x, 60x, 180x, then 360x). @default 10 000 (env `CALLBACK_RETRY_BASE_MS`) */
  callbackRetryBaseMs: number;
  /** One callback request, connect to reply headers. @default 10 000 (env `CALLBACK_TIMEOUT_MS`) */
  callbackTimeoutMs: number;
  /** Callback requests in flight at once. @default 4 (env `CALLBACK_CONCURRENCY`) */
  callbackConcurrency: number;
  /** S3-compatible storage for uploads, play files and pictures in place of DATA_DIR; undefined keeps them on local disk. (env `S3_*`) */
  s3: S3Settings | undefined;
  /** Least important log lines written: `debug`, `info` (one line per request and up), `warn` or `error`. @default 'info' (env `LOG_LEVEL`) */
  logLevel: LogLevel;
  /**
   * Every app's limits where its `APPS_FILE` entry's `quota` leaves a field out (docs/operations.md,
   * "Quotas"); an unset variable is no limit. (env `APP_REQUESTS_PER_S`, `APP_REQUESTS_BURST`
   * (default 2 × the rate), `APP_UPLOADS_PER_MIN`, `APP_UPLOADS_IN_FLIGHT`, `APP_STORAGE_BYTES`)
   * @default {} (no limits)
   */
  quotaDefaults: AppQuota;
  /** Who may read /metrics and /readyz's details (docs/operations.md). */
  ops: OpsSettings;
}

/** The operator's endpoints: /metrics and the details of /readyz. */
interface OpsSettings {
  /**
   * The Bearer token that gets /readyz's details (hosts, bucket, errors) and /metrics on the
   * service's port; unset, no request there does. Not enumerable, so no log line or JSON of the
   * config carries it. (env `OPS_TOKEN`: at least 16 printable characters, no spaces)
   */
  token: string | undefined;
  /** A second listener serving /metrics and the detailed /readyz without a token; undefined: none. (env `OPS_PORT`; 0 picks a free port) */
  port: number | undefined;
  /** The second listener's address. @default '127.0.0.1' (env `OPS_HOST`) */
  host: string;
}

/** Where uploads, play files and pictures live when S3 is configured (docs/storage.md). */
export interface S3Settings {
  /** (env `S3_BUCKET`) */
  bucket: string;
  /** An S3-compatible server's base URL (MinIO, R2, …); undefined means AWS S3 itself. (env `S3_ENDPOINT`) */
  endpoint: string | undefined;
  /** @default 'us-east-1' (env `S3_REGION`; R2 takes 'auto') */
  region: string;
  /** (env `S3_ACCESS_KEY_ID`) */
  accessKeyId: string;
  /** Not enumerable, so no log line or JSON of the config carries it. (env `S3_SECRET_ACCESS_KEY`) */
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` in place of `<bucket>.<endpoint>/<key>`; MinIO and most local servers need it. @default false (env `S3_FORCE_PATH_STYLE=1`) */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const GIB = 1024 ** 3;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** `1` or `0`, or undefined when unset; anything else is refused, since `true` silently meaning off is a trap. */
function optionalFlag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return optionalFlag(env, name) ?? false;
}

/** A PUBLIC_URL only this machine or its private network can reach: `localhost` or a non-public IP literal. */
function isLocalUrl(url: string): boolean {
  const host = bareHostname(new URL(url));
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !publicAddressesOnly(host);
}

function timeZone(raw: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return raw;
  } catch {
    throw new ConfigError(`TIME_ZONE "${raw}" is not an IANA time zone`);
  }
}

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  if (isLogLevel(raw)) return raw;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
}

/** An http(s) URL from the variable `name`, no trailing slash. */
function httpUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be http or https`);
  return url;
}

function publicUrl(raw: string): string {
  return httpUrl('PUBLIC_URL', raw).href.replace(/\/+$/, '');
}

/** `publicUrl` with a port 0 replaced by the port the service listens on. */
export function settlePublicUrl(publicUrl: string, port: number): string {
  const url = new URL(publicUrl);
  if (url.port !== '0') return publicUrl;
  url.port = String(port);
  return url.href.replace(/\/+$/, '');
}

function databaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^postgres(ql)?:\/\//.test(value)) throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)');
  return value;
}

const S3_NAMES = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;
/** S3's bucket naming rule (3–63 lower-case letters, digits, dots and hyphens), which every compatible server accepts. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function s3Endpoint(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = httpUrl('S3_ENDPOINT', raw);
  if (url.username || url.password) throw new ConfigError('S3_ENDPOINT must not hold credentials; use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return url.href.replace(/\/+$/, '');
}

/** All six S3_* names, or none; a half-configured bucket is refused rather than falling back to DATA_DIR. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.S3_BUCKET || undefined;
  if (bucket === undefined) {
    const stray = S3_NAMES.filter((name) => env[name]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without S3_BUCKET: set S3_BUCKET too, or unset them to keep files in DATA_DIR`);
    return undefined;
  }
  if (!BUCKET_NAME.test(bucket)) throw new ConfigError(`S3_BUCKET "${bucket}" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)`);
  const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`S3_BUCKET is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region)) throw new ConfigError(`S3_REGION "${region}" is not a region name (like us-east-1, or auto for R2)`);
  const settings = {
    bucket,
    endpoint: s3Endpoint(env.S3_ENDPOINT),
    region,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE'),
  } as S3Settings;
  Object.defineProperty(settings, 'secretAccessKey', { value: env.S3_SECRET_ACCESS_KEY!, enumerable: false });
  return settings;
}

function opsSettings(env: NodeJS.ProcessEnv): OpsSettings {
  const token = env.OPS_TOKEN || undefined;
  if (token !== undefined && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) throw new ConfigError('OPS_TOKEN must be at least 16 printable characters without spaces');
  const settings: OpsSettings = {
    token: undefined,
    port: env.OPS_PORT ? integer(env, 'OPS_PORT', 0, 0, 65535) : undefined,
    host: env.OPS_HOST || '127.0.0.1',
  };
  Object.defineProperty(settings, 'token', { value: token, enumerable: false });
  return settings;
}

/** The env variable that gives each quota field its service-wide default. */
const QUOTA_ENV = {
  requestsPerSecond: 'APP_REQUESTS_PER_S',
  requestsBurst: 'APP_REQUESTS_BURST',
  uploadsPerMinute: 'APP_UPLOADS_PER_MIN',
  uploadsInFlight: 'APP_UPLOADS_IN_FLIGHT',
  storageBytes: 'APP_STORAGE_BYTES',
} as const satisfies Record<keyof AppQuota, string>;

function quotaDefaults(env: NodeJS.ProcessEnv): AppQuota {
  const defaults: AppQuota = {};
  for (const [field, name] of Object.entries(QUOTA_ENV) as [keyof AppQuota, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
    if (!isQuotaValue(field, value)) throw new ConfigError(`${name} must be ${quotaRule(field)} (unset for no limit), got "${raw}"`);
    defaults[field] = value;
  }
  return defaults;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const publicAddress = publicUrl(env.PUBLIC_URL || `http://localhost:${port}`);
  return {
    port,
    httpIdleTimeoutMs: integer(env, 'HTTP_IDLE_TIMEOUT_MS', 120_000, 1, 3_600_000),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    publicUrl: publicAddress,
    appsFile: env.APPS_FILE || undefined,
    timeZone: timeZone(env.TIME_ZONE || 'Asia/Shanghai'),
    sourceUrlAllowPrivate: flag(env, 'SOURCE_URL_ALLOW_PRIVATE'),
    maxUploadBytesFlash: integer(env, 'MAX_UPLOAD_BYTES_FLASH', 2 * GIB, 1, Number.MAX_SAFE_INTEGER),
    maxUploadBytesSilverlight: integer(env, 'MAX_UPLOAD_BYTES_SILVERLIGHT', 6 * GIB, 1, Number.MAX_SAFE_INTEGER),
    uploadChunkBytes: integer(env, 'UPLOAD_CHUNK_BYTES', 0, 0, Number.MAX_SAFE_INTEGER),
    processingConcurrency: integer(env, 'PROCESSING_CONCURRENCY', 2, 1, 64),
    downloadConcurrency: integer(env, 'DOWNLOAD_CONCURRENCY', 2, 1, 64),
    appMaxRunningJobs: env.APP_MAX_RUNNING_JOBS ? integer(env, 'APP_MAX_RUNNING_JOBS', 1, 1, 64) : undefined,
    // Below a second, a busy event loop or a slow query could let a working instance lose its job.
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 60_000, 1_000, 3_600_000),
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
    downloadMinBytesPerS: integer(env, 'DOWNLOAD_MIN_BYTES_PER_S', 16_384, 0, Number.MAX_SAFE_INTEGER),
    // Checked every tenth of the window: below 100 ms the checks would cost more than they catch.
    downloadRateWindowMs: integer(env, 'DOWNLOAD_RATE_WINDOW_MS', 30_000, 100, 3_600_000),
    callbackUrlAllowPrivate: optionalFlag(env, 'CALLBACK_URL_ALLOW_PRIVATE') ?? isLocalUrl(publicAddress),
    callbackMaxAttempts: integer(env, 'CALLBACK_MAX_ATTEMPTS', 10, 1, 100),
    callbackRetryBaseMs: integer(env, 'CALLBACK_RETRY_BASE_MS', 10_000, 1, 3_600_000),
    callbackTimeoutMs: integer(env, 'CALLBACK_TIMEOUT_MS', 10_000, 1, 600_000),
    callbackConcurrency: integer(env, 'CALLBACK_CONCURRENCY', 4, 1, 64),
    s3: s3Settings(env),
    logLevel: logLevel(env.LOG_LEVEL),
    ops: opsSettings(env),
    quotaDefaults: quotaDefaults(env),
  };
}
