import { isIP } from 'node:net';
import type { AppQuota } from './auth/quota';
import { ConfigError, isSet, setting, type SettingName } from './configSchema';
import type { LogLevel } from './log';
import type { X264Preset } from './processing/renditions';
import { publicAddressesOnly } from './net/addressPolicy';
import { bareHostname } from './net/vettedHost';

export { ConfigError };

/**
 * Everything the service reads from its environment, checked once at start-up. Each field names
 * its variable; its default, unit, range and meaning are that variable's row in `SETTINGS`
 * (configSchema.ts, shown in docs/configuration.md), and only there.
 */
export interface ServiceConfig {
  /** `PORT`; 0 picks a free port, as the tests do. */
  port: number;
  /** `HTTP_IDLE_TIMEOUT_MS` */
  httpIdleTimeoutMs: number;
  /** `HOST` */
  host: string;
  /** `DATA_DIR`, absolute. */
  dataDir: string;
  /** `DATABASE_URL`: PostgreSQL in place of SQLite in DATA_DIR. */
  databaseUrl: string | undefined;
  /**
   * `PUBLIC_URL`, no trailing slash. Port 0 in it (the default with `PORT=0`) stands for the port
   * the service gets, filled in by {@link settlePublicUrl} before anything reads it.
   */
  publicUrl: string;
  /** `APPS_FILE`; without it a demo app is made in the data directory. */
  appsFile: string | undefined;
  /** `TIME_ZONE` of `CreateDate`. */
  timeZone: string;
  /** `SOURCE_URL_ALLOW_PRIVATE` */
  sourceUrlAllowPrivate: boolean;
  /** `MAX_UPLOAD_BYTES_FLASH`, for `uploadType` flash (or absent). */
  maxUploadBytesFlash: number;
  /** `MAX_UPLOAD_BYTES_SILVERLIGHT` */
  maxUploadBytesSilverlight: number;
  /** `UPLOAD_CHUNK_BYTES`; 0 sends the file in one request. */
  uploadChunkBytes: number;
  /** `PROCESSING_CONCURRENCY`: the transcode pool's size. */
  processingConcurrency: number;
  /** `DOWNLOAD_CONCURRENCY`: the download pool's size. */
  downloadConcurrency: number;
  /** `APP_MAX_RUNNING_JOBS`; undefined: half of each pool, at least 1 (docs/processing.md#fair-scheduling). */
  appMaxRunningJobs: number | undefined;
  /** `JOB_LEASE_MS`; the instance renews its jobs every third of it. */
  jobLeaseMs: number;
  /** `FFMPEG_PATH` */
  ffmpegPath: string;
  /** `FFPROBE_PATH` */
  ffprobePath: string;
  /** `MAX_SOURCE_PIXELS` (width × height) */
  maxSourcePixels: number;
  /** `X264_PRESET` */
  x264Preset: X264Preset;
  /** `TRANSCODE_TIMEOUT_MS` */
  transcodeTimeoutMs: number;
  /** `REMUX_GRACE_S`: how long a remux the rungs replaced is still served. */
  remuxGraceS: number;
  /** `DIST_DIR`, absolute: the widget's build output, served under /Scripts/UploadWidget and /UploadWidget/assets. */
  distDir: string;
  /** `DOWNLOAD_MAX_BYTES`, else {@link maxUploadBytesSilverlight}. */
  downloadMaxBytes: number;
  /** `DOWNLOAD_TIMEOUT_MS` */
  downloadTimeoutMs: number;
  /** `DOWNLOAD_IDLE_TIMEOUT_MS` */
  downloadIdleTimeoutMs: number;
  /** `DOWNLOAD_MIN_BYTES_PER_S`, averaged over every {@link downloadRateWindowMs}; 0 turns it off. */
  downloadMinBytesPerS: number;
  /** `DOWNLOAD_RATE_WINDOW_MS` */
  downloadRateWindowMs: number;
  /** `CALLBACK_URL_ALLOW_PRIVATE`, else whether {@link publicUrl} is itself loopback or private. */
  callbackUrlAllowPrivate: boolean;
  /** `CALLBACK_MAX_ATTEMPTS` */
  callbackMaxAttempts: number;
  /** `CALLBACK_RETRY_BASE_MS` */
  callbackRetryBaseMs: number;
  /** `CALLBACK_TIMEOUT_MS` */
  callbackTimeoutMs: number;
  /** `CALLBACK_CONCURRENCY` */
  callbackConcurrency: number;
  /** `S3_*`: uploads, play files and pictures in a bucket in place of DATA_DIR; undefined keeps them on local disk. */
  s3: S3Settings | undefined;
  /** `S3_PART_CONCURRENCY`: parts of one upload sent to the bucket at once (with `S3_BUCKET` only). */
  s3PartConcurrency: number;
  /** `S3_PART_MEMORY_BYTES`: memory for the parts uploads are sending, shared (with `S3_BUCKET` only). */
  s3PartMemoryBytes: number;
  /** `LOG_LEVEL` */
  logLevel: LogLevel;
  /**
   * Every app's limits where its `APPS_FILE` entry's `quota` leaves a field out
   * (docs/operations.md, "Quotas"): `APP_REQUESTS_PER_S`, `APP_REQUESTS_BURST`,
   * `APP_UPLOADS_PER_MIN`, `APP_UPLOADS_IN_FLIGHT`, `APP_STORAGE_BYTES`; a field is absent when
   * its variable is unset (no limit), but for the per-video budgets (`APP_PAGES_PER_VIDEO_PER_MIN`,
   * `APP_UPLOADS_PER_VIDEO_PER_MIN`), which have defaults.
   */
  quotaDefaults: AppQuota;
  /** Who may read /metrics and /readyz's details (docs/operations.md). */
  ops: OpsSettings;
}

/** The operator's endpoints: /metrics and the details of /readyz. */
interface OpsSettings {
  /** `OPS_TOKEN`. Not enumerable, so no log line or JSON of the config carries it. */
  token: string | undefined;
  /** `OPS_PORT`: a second listener without a token; undefined: none. */
  port: number | undefined;
  /** `OPS_HOST` */
  host: string;
}

/** Where uploads, play files and pictures live when S3 is configured (docs/storage.md). */
export interface S3Settings {
  /** `S3_BUCKET` */
  bucket: string;
  /** `S3_ENDPOINT`; undefined means AWS S3 itself. */
  endpoint: string | undefined;
  /** `S3_REGION` */
  region: string;
  /** `S3_ACCESS_KEY_ID` */
  accessKeyId: string;
  /** `S3_SECRET_ACCESS_KEY`. Not enumerable, so no log line or JSON of the config carries it. */
  secretAccessKey: string;
  /** `S3_FORCE_PATH_STYLE` */
  forcePathStyle: boolean;
}

/** A PUBLIC_URL only this machine or its private network can reach: `localhost` or a non-public IP literal. */
function isLocalUrl(url: string): boolean {
  const host = bareHostname(new URL(url));
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !publicAddressesOnly(host);
}

/** `publicUrl` with a port 0 replaced by the port the service listens on. */
export function settlePublicUrl(publicUrl: string, port: number): string {
  const url = new URL(publicUrl);
  if (url.port !== '0') return publicUrl;
  url.port = String(port);
  return url.href.replace(/\/+$/, '');
}

const S3_NAMES = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const satisfies SettingName[];

/** All six S3_* names, or none; a half-configured bucket is refused rather than falling back to DATA_DIR. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (!isSet(env, 'S3_BUCKET')) {
    const stray = S3_NAMES.filter((name) => isSet(env, name));
    if (stray.length > 0)
      throw new ConfigError(`${stray.join(', ')} set without S3_BUCKET: set S3_BUCKET too, or unset them to keep files in DATA_DIR`);
    return undefined;
  }
  const bucket = setting(env, 'S3_BUCKET')!;
  const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => !isSet(env, name));
  if (missing.length > 0) throw new ConfigError(`S3_BUCKET is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  const region = setting(env, 'S3_REGION');
  const settings = {
    bucket,
    endpoint: setting(env, 'S3_ENDPOINT'),
    region,
    accessKeyId: setting(env, 'S3_ACCESS_KEY_ID')!,
    forcePathStyle: setting(env, 'S3_FORCE_PATH_STYLE'),
  } as S3Settings;
  Object.defineProperty(settings, 'secretAccessKey', { value: setting(env, 'S3_SECRET_ACCESS_KEY')!, enumerable: false });
  return settings;
}

function opsSettings(env: NodeJS.ProcessEnv): OpsSettings {
  const token = setting(env, 'OPS_TOKEN');
  const settings: OpsSettings = { token: undefined, port: setting(env, 'OPS_PORT'), host: setting(env, 'OPS_HOST') };
  Object.defineProperty(settings, 'token', { value: token, enumerable: false });
  return settings;
}

/** The variable that gives each quota field its service-wide default. */
const QUOTA_ENV = {
  requestsPerSecond: 'APP_REQUESTS_PER_S',
  requestsBurst: 'APP_REQUESTS_BURST',
  uploadsPerMinute: 'APP_UPLOADS_PER_MIN',
  uploadsInFlight: 'APP_UPLOADS_IN_FLIGHT',
  storageBytes: 'APP_STORAGE_BYTES',
  pagesPerVideoPerMinute: 'APP_PAGES_PER_VIDEO_PER_MIN',
  uploadsPerVideoPerMinute: 'APP_UPLOADS_PER_VIDEO_PER_MIN',
} as const satisfies Record<keyof AppQuota, SettingName>;

function quotaDefaults(env: NodeJS.ProcessEnv): AppQuota {
  const defaults: AppQuota = {};
  for (const [field, name] of Object.entries(QUOTA_ENV) as [keyof AppQuota, (typeof QUOTA_ENV)[keyof AppQuota]][]) {
    const value = setting(env, name);
    if (value !== undefined) defaults[field] = value;
  }
  return defaults;
}

/**
 * The service's settings from `env`, each parsed by its row in `SETTINGS` (configSchema.ts); the
 * rules that tie variables together are here. Throws a one-line ConfigError naming the first bad
 * variable.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  // Of several bad values the first read is the one named: keep this order, so the line a given
  // environment gets stays the same.
  const port = setting(env, 'PORT');
  const publicAddress = setting(env, 'PUBLIC_URL') ?? `http://localhost:${port}`;
  return {
    port,
    httpIdleTimeoutMs: setting(env, 'HTTP_IDLE_TIMEOUT_MS'),
    host: setting(env, 'HOST'),
    dataDir: setting(env, 'DATA_DIR'),
    databaseUrl: setting(env, 'DATABASE_URL'),
    publicUrl: publicAddress,
    appsFile: setting(env, 'APPS_FILE'),
    timeZone: setting(env, 'TIME_ZONE'),
    sourceUrlAllowPrivate: setting(env, 'SOURCE_URL_ALLOW_PRIVATE'),
    maxUploadBytesFlash: setting(env, 'MAX_UPLOAD_BYTES_FLASH'),
    maxUploadBytesSilverlight: setting(env, 'MAX_UPLOAD_BYTES_SILVERLIGHT'),
    uploadChunkBytes: setting(env, 'UPLOAD_CHUNK_BYTES'),
    processingConcurrency: setting(env, 'PROCESSING_CONCURRENCY'),
    downloadConcurrency: setting(env, 'DOWNLOAD_CONCURRENCY'),
    appMaxRunningJobs: setting(env, 'APP_MAX_RUNNING_JOBS'),
    jobLeaseMs: setting(env, 'JOB_LEASE_MS'),
    ffmpegPath: setting(env, 'FFMPEG_PATH'),
    ffprobePath: setting(env, 'FFPROBE_PATH'),
    maxSourcePixels: setting(env, 'MAX_SOURCE_PIXELS'),
    x264Preset: setting(env, 'X264_PRESET'),
    transcodeTimeoutMs: setting(env, 'TRANSCODE_TIMEOUT_MS'),
    remuxGraceS: setting(env, 'REMUX_GRACE_S'),
    distDir: setting(env, 'DIST_DIR'),
    downloadMaxBytes: setting(env, 'DOWNLOAD_MAX_BYTES') ?? setting(env, 'MAX_UPLOAD_BYTES_SILVERLIGHT'),
    downloadTimeoutMs: setting(env, 'DOWNLOAD_TIMEOUT_MS'),
    downloadIdleTimeoutMs: setting(env, 'DOWNLOAD_IDLE_TIMEOUT_MS'),
    downloadMinBytesPerS: setting(env, 'DOWNLOAD_MIN_BYTES_PER_S'),
    downloadRateWindowMs: setting(env, 'DOWNLOAD_RATE_WINDOW_MS'),
    callbackUrlAllowPrivate: setting(env, 'CALLBACK_URL_ALLOW_PRIVATE') ?? isLocalUrl(publicAddress),
    callbackMaxAttempts: setting(env, 'CALLBACK_MAX_ATTEMPTS'),
    callbackRetryBaseMs: setting(env, 'CALLBACK_RETRY_BASE_MS'),
    callbackTimeoutMs: setting(env, 'CALLBACK_TIMEOUT_MS'),
    callbackConcurrency: setting(env, 'CALLBACK_CONCURRENCY'),
    s3: s3Settings(env),
    s3PartConcurrency: setting(env, 'S3_PART_CONCURRENCY'),
    s3PartMemoryBytes: setting(env, 'S3_PART_MEMORY_BYTES'),
    logLevel: setting(env, 'LOG_LEVEL'),
    ops: opsSettings(env),
    quotaDefaults: quotaDefaults(env),
  };
}
