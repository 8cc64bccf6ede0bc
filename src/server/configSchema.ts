import { resolve } from 'node:path';
import { isQuotaValue, quotaRule, type AppQuota } from './auth/quota';
import { LOG_LEVELS, type LogLevel } from './log';
import { X264_PRESETS, type X264Preset } from './processing/renditions';
import { PROJECT_ROOT } from './project';

/**
 * Every environment variable the service reads, as one table: `readConfig` (config.ts) parses
 * through it, and `npm run docs:config` writes docs/configuration.md from it. Rules that tie two
 * variables together (S3_* all or none, defaults taken from another variable) are code in
 * config.ts, and each is named in its variable's `doc` line. docs/decisions.md ("Configuration")
 * says why this is a table of our own rather than a schema library.
 */

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** One environment variable: how it is parsed, and what the configuration page says of it. */
export interface Setting<T> {
  /** What kind of text it takes, for the page. */
  readonly type: 'whole number' | 'number' | 'flag' | 'text' | 'path' | 'URL' | 'one of' | 'secret';
  /** The page's Default column, in Markdown; undefined: none. */
  readonly default: string | undefined;
  /** `ms`, `bytes`, …, for the page. */
  readonly unit?: string;
  /** The accepted values, in Markdown (`1–64`, `` `debug`, `info` ``); undefined: anything of its type. */
  readonly range?: string;
  /** One line for the page's Meaning column, in Markdown; links are relative to docs/. */
  readonly doc: string;
  /** The value of a set variable, or the default of an unset one; throws a one-line ConfigError naming `name`. */
  readonly parse: (raw: string | undefined, name: string) => T;
}

interface Described {
  doc: string;
  unit?: string;
  /**
   * The page's Default column where the value alone does not say it (none, or one taken from
   * another variable); for a whole number with a default, a note after it (`2 GiB`).
   */
  shown?: string;
}

const code = (value: string | number | boolean): string => `\`${String(value)}\``;

function wholeNumber(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

interface IntegerSpec extends Described {
  min: number;
  max: number;
}
function integer(spec: IntegerSpec & { default: number }): Setting<number>;
function integer(spec: IntegerSpec): Setting<number | undefined>;
function integer(spec: IntegerSpec & { default?: number }): Setting<number | undefined> {
  const { min, max } = spec;
  const fallback = spec.default;
  const plain = fallback === undefined ? undefined : code(fallback);
  return {
    type: 'whole number',
    default: spec.shown === undefined ? plain : plain === undefined ? spec.shown : `${plain} (${spec.shown})`,
    unit: spec.unit,
    range: max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min}–${max}`,
    doc: spec.doc,
    parse: (raw, name) => (raw === undefined ? fallback : wholeNumber(raw, name, min, max)),
  };
}

/** `1` or `0`, nothing else: `true` silently meaning off would be a trap. */
function flagValue(raw: string, name: string): boolean {
  if (raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

function flag(spec: Described & { default: boolean }): Setting<boolean>;
function flag(spec: Described): Setting<boolean | undefined>;
function flag(spec: Described & { default?: boolean }): Setting<boolean | undefined> {
  const fallback = spec.default;
  return {
    type: 'flag',
    default: spec.shown ?? (fallback === undefined ? undefined : code(fallback ? 1 : 0)),
    range: '`1` or `0`',
    doc: spec.doc,
    parse: (raw, name) => (raw === undefined ? fallback : flagValue(raw, name)),
  };
}

interface TextSpec extends Described {
  type?: 'text' | 'path' | 'secret';
  range?: string;
  /** Checks (and may rewrite) the value, the default included; throws a ConfigError naming the variable. */
  check?: (value: string, name: string) => string;
}
function text(spec: TextSpec & { default: string }): Setting<string>;
function text(spec: TextSpec): Setting<string | undefined>;
function text(spec: TextSpec & { default?: string }): Setting<string | undefined> {
  const fallback = spec.default;
  const check = spec.check ?? ((value: string) => value);
  return {
    type: spec.type ?? 'text',
    default: spec.shown ?? (fallback === undefined ? undefined : code(fallback)),
    range: spec.range,
    doc: spec.doc,
    parse: (raw, name) => {
      const value = raw ?? fallback;
      return value === undefined ? undefined : check(value, name);
    },
  };
}

/** An http(s) URL from the variable `name`, no trailing slash. */
function httpUrl(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be http or https`);
  return url;
}

/** An http(s) base URL, given without its trailing slash; `check` refuses more of it. */
function baseUrl(spec: Described & { check?: (url: URL, name: string) => void }): Setting<string | undefined> {
  return {
    type: 'URL',
    default: spec.shown,
    range: 'http or https',
    doc: spec.doc,
    parse: (raw, name) => {
      if (raw === undefined) return undefined;
      const url = httpUrl(raw, name);
      spec.check?.(url, name);
      return url.href.replace(/\/+$/, '');
    },
  };
}

function oneOf<const T extends string>(values: readonly T[], spec: Described & { default: T }): Setting<T> {
  return {
    type: 'one of',
    default: code(spec.default),
    range: values.map(code).join(', '),
    doc: spec.doc,
    parse: (raw, name) => {
      if (raw === undefined) return spec.default;
      if ((values as readonly string[]).includes(raw)) return raw as T;
      throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    },
  };
}

/** A service-wide default of one field of every app's `quota`; unset is `default`, else no limit. */
function quota(field: keyof AppQuota, spec: Described & { default?: number }): Setting<number | undefined> {
  return {
    type: 'number',
    default: spec.shown ?? (spec.default === undefined ? 'none (no limit)' : code(spec.default)),
    unit: spec.unit,
    range: quotaRule(field),
    doc: spec.doc,
    parse: (raw, name) => {
      if (raw === undefined) return spec.default;
      const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
      if (!isQuotaValue(field, value)) throw new ConfigError(`${name} must be ${quotaRule(field)} (unset for no limit), got "${raw}"`);
      return value;
    },
  };
}

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const PORT_RANGE = { min: 0, max: 65535 } as const;
const ANY_SIZE = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/** S3's bucket naming rule (3–63 lower-case letters, digits, dots and hyphens), which every compatible server accepts. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The table, in the order docs/configuration.md lists it. */
export const SETTINGS = {
  PORT: integer({
    default: 8080,
    ...PORT_RANGE,
    doc: 'TCP port to listen on; `0` picks a free port (the start-up line names it).',
  }),
  HOST: text({ default: '127.0.0.1', doc: 'Address to listen on; `0.0.0.0` for every interface (put TLS in front).' }),
  DATA_DIR: text({
    type: 'path',
    default: './data',
    check: (value) => resolve(value),
    doc: 'The SQLite file `service.sqlite`, uploads and media (with `S3_BUCKET`: scratch space instead); created when missing. State survives restarts. Folders the service makes in it are 0700, its files 0600.',
  }),
  PUBLIC_URL: baseUrl({
    shown: '`http://localhost:$PORT`',
    doc: 'The address apps and browsers use to reach the service (behind a proxy: its public address). Play, download and picture URLs in replies start with it. A trailing `/` is dropped; port `0` in it stands for the port the service gets.',
  }),
  APPS_FILE: text({
    type: 'path',
    doc: 'JSON file listing the registered apps ([apps.md](apps.md)), re-read on SIGHUP and when it changes. Without it, a demo app is used: AppId `demo`, its random AppSecret made once per database, copied to `DATA_DIR/demo-app.json` (mode 0600).',
  }),
  DATABASE_URL: text({
    range: '`postgres://…`',
    check: (value) => {
      if (!/^postgres(ql)?:\/\//.test(value))
        throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)');
      return value;
    },
    doc: 'Keeps the service’s records in PostgreSQL instead of `service.sqlite`; migrated at start-up ([storage.md](storage.md)).',
  }),
  S3_BUCKET: text({
    range: '3–63 lower-case letters, digits, dots and hyphens',
    check: (value) => {
      if (!BUCKET_NAME.test(value))
        throw new ConfigError(`S3_BUCKET "${value}" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)`);
      return value;
    },
    doc: 'Keeps uploads, play files and pictures in this S3 bucket instead of `DATA_DIR` (which then holds only scratch space for ffmpeg); it must exist and answer at start-up. Every other `S3_*` variable is refused without it. MinIO, AWS S3, R2: [storage.md](storage.md#files).',
  }),
  S3_ACCESS_KEY_ID: text({ doc: 'The bucket’s access key; required with `S3_BUCKET`.' }),
  S3_SECRET_ACCESS_KEY: text({
    type: 'secret',
    doc: 'The bucket’s secret key; required with `S3_BUCKET`. It never reaches a log, a reply or a JSON of the config.',
  }),
  S3_ENDPOINT: baseUrl({
    shown: 'AWS S3',
    check: (url) => {
      if (url.username || url.password)
        throw new ConfigError('S3_ENDPOINT must not hold credentials; use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
    },
    doc: 'An S3-compatible server’s base URL (MinIO, R2, …), without credentials in it.',
  }),
  S3_REGION: text({
    default: 'us-east-1',
    range: 'lower-case letters, digits and hyphens, up to 32',
    check: (value) => {
      if (!/^[a-z0-9-]{1,32}$/.test(value))
        throw new ConfigError(`S3_REGION "${value}" is not a region name (like us-east-1, or auto for R2)`);
      return value;
    },
    doc: 'The bucket’s region (`auto` for R2).',
  }),
  S3_FORCE_PATH_STYLE: flag({
    default: false,
    doc: '`1` addresses the bucket as `<endpoint>/<bucket>` rather than `<bucket>.<endpoint>` (MinIO and most self-hosted servers).',
  }),
  S3_PART_CONCURRENCY: integer({
    default: 4,
    min: 1,
    max: 32,
    doc: 'Parts of one upload sent to the bucket at once while its PATCH still arrives; the service then holds at most this many parts plus one (8 MiB each, or more past 8 GB) per upload, in memory (`S3_PART_MEMORY_BYTES`) or its temporary folder. Used only with `S3_BUCKET` ([storage.md](storage.md#what-s3-costs)).',
  }),
  S3_PART_MEMORY_BYTES: integer({
    default: 64 * MIB,
    shown: '64 MiB',
    unit: 'bytes',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'Memory for the parts that uploads are receiving and sending, shared by all of them and kept for reuse; parts that find it full wait in the temporary folder instead, at the cost of a write and a read of each byte. `0` keeps every part in a file. Used only with `S3_BUCKET`.',
  }),
  TIME_ZONE: text({
    default: 'Asia/Shanghai',
    range: 'an IANA time zone',
    check: (value) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
        return value;
      } catch {
        throw new ConfigError(`TIME_ZONE "${value}" is not an IANA time zone`);
      }
    },
    doc: 'Time zone in which `CreateDate` is written ("server time is Beijing time" in the spec).',
  }),
  SOURCE_URL_ALLOW_PRIVATE: flag({
    default: false,
    doc: '`1` lets server-side downloads (SourceFileGetType 2) reach loopback and private addresses: for local tests only.',
  }),
  MAX_UPLOAD_BYTES_FLASH: integer({
    default: 2 * GIB,
    shown: '2 GiB',
    unit: 'bytes',
    ...ANY_SIZE,
    doc: 'Largest file for `uploadType` `flash` (the default).',
  }),
  MAX_UPLOAD_BYTES_SILVERLIGHT: integer({
    default: 6 * GIB,
    shown: '6 GiB',
    unit: 'bytes',
    ...ANY_SIZE,
    doc: 'Largest file for `uploadType` `silverlight`.',
  }),
  UPLOAD_CHUNK_BYTES: integer({
    default: 0,
    shown: 'off',
    unit: 'bytes',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'Largest request body the uploader sends; `0` sends the whole file in one request, the fastest. Set it (e.g. `8388608`) behind a proxy that caps request bodies.',
  }),
  DIST_DIR: text({
    type: 'path',
    default: resolve(PROJECT_ROOT, 'dist'),
    shown: '`<project>/dist`',
    check: (value) => resolve(value),
    doc: 'Where `npm run build` put the widget; found from the folder holding `package.json`, not the working directory.',
  }),
  LOG_LEVEL: oneOf<LogLevel>(LOG_LEVELS, {
    default: 'info',
    doc: 'The least important log lines written; `info` writes one line per request.',
  }),
  PROCESSING_CONCURRENCY: integer({
    default: 2,
    unit: 'jobs',
    min: 1,
    max: 64,
    doc: 'Transcodes at once (the transcode pool); each ffmpeg gets the cores ÷ this many threads.',
  }),
  DOWNLOAD_CONCURRENCY: integer({
    default: 2,
    unit: 'jobs',
    min: 1,
    max: 64,
    doc: 'Server-side downloads at once (the download pool, apart from the transcodes, so slow sources never hold a transcode’s slot).',
  }),
  APP_MAX_RUNNING_JOBS: integer({
    shown: 'half of each pool, at least 1',
    unit: 'jobs',
    min: 1,
    max: 64,
    doc: 'The most jobs one app holds at once in each pool of an instance; the apps take turns for the slots ([processing.md](processing.md#fair-scheduling)). One app alone on the service: set it to the pool size to use every slot.',
  }),
  // Below a second, a busy event loop or a slow query could let a working instance lose its job.
  JOB_LEASE_MS: integer({
    default: 60_000,
    unit: 'ms',
    min: 1_000,
    max: 3_600_000,
    doc: 'How long a running job stays its instance’s without renewal (renewed every third of it); after it, another instance on the same database resumes the job ([storage.md](storage.md#job-leases)).',
  }),
  FFMPEG_PATH: text({ type: 'path', default: 'ffmpeg', doc: 'The ffmpeg binary (found on `PATH` by default); needs libx264 and AAC.' }),
  FFPROBE_PATH: text({ type: 'path', default: 'ffprobe', doc: 'The ffprobe binary (found on `PATH` by default).' }),
  DOWNLOAD_MAX_BYTES: integer({
    shown: '`MAX_UPLOAD_BYTES_SILVERLIGHT`',
    unit: 'bytes',
    ...ANY_SIZE,
    doc: 'Largest file a server-side download may store; unset, the silverlight upload limit.',
  }),
  DOWNLOAD_TIMEOUT_MS: integer({
    default: 3_600_000,
    shown: '1 h',
    unit: 'ms',
    min: 1,
    max: 7 * 24 * 3_600_000,
    doc: 'A whole download, first DNS lookup to last byte, redirects included.',
  }),
  DOWNLOAD_IDLE_TIMEOUT_MS: integer({
    default: 30_000,
    unit: 'ms',
    min: 1,
    max: 3_600_000,
    doc: 'Longest silence from a download source: connecting, awaiting headers, or between body bytes.',
  }),
  DOWNLOAD_MIN_BYTES_PER_S: integer({
    default: 16_384,
    unit: 'bytes/s',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'The least average rate of a download over every `DOWNLOAD_RATE_WINDOW_MS`, from its first request on; under it the video ends in status 4 (`too-slow`). `0` turns it off.',
  }),
  // Checked every tenth of the window: below 100 ms the checks would cost more than they catch.
  DOWNLOAD_RATE_WINDOW_MS: integer({
    default: 30_000,
    unit: 'ms',
    min: 100,
    max: 3_600_000,
    doc: 'The sliding window over which `DOWNLOAD_MIN_BYTES_PER_S` is averaged.',
  }),
  CALLBACK_URL_ALLOW_PRIVATE: flag({
    shown: '`1` while `PUBLIC_URL` is loopback or private, else `0`',
    doc: '`1` lets status callbacks reach loopback and private addresses (an app backend on the same network); `0` allows public addresses only. Checked after DNS, on the address connected to. A refused callback is given up at once.',
  }),
  CALLBACK_MAX_ATTEMPTS: integer({ default: 10, min: 1, max: 100, doc: 'Status callback attempts before it is given up.' }),
  CALLBACK_RETRY_BASE_MS: integer({
    default: 10_000,
    unit: 'ms',
    min: 1,
    max: 3_600_000,
    doc: 'First retry delay of a status callback; later ones grow from it (3×, 12×, 60×, 180×, then 360×).',
  }),
  CALLBACK_TIMEOUT_MS: integer({
    default: 10_000,
    unit: 'ms',
    min: 1,
    max: 600_000,
    doc: 'One callback request, connect to reply headers.',
  }),
  CALLBACK_CONCURRENCY: integer({ default: 4, unit: 'requests', min: 1, max: 64, doc: 'Callback requests in flight at once.' }),
  // ffmpeg's max_pixels option stops at INT_MAX.
  MAX_SOURCE_PIXELS: integer({
    default: 8192 * 4320,
    shown: '8192×4320, 8K',
    unit: 'pixels',
    min: 1,
    max: 2_147_483_647,
    doc: 'Largest source picture (width × height); over it the video ends in status 7 without a frame being decoded, since one frame of a tiny file can need gigabytes.',
  }),
  X264_PRESET: oneOf<X264Preset>(X264_PRESETS, {
    default: 'superfast',
    doc: 'x264’s preset for the rungs: a slower one spends more CPU for a slightly better picture at the same bitrate ([benchmarks.md](benchmarks.md#a-cheaper-ladder-issue-22) measures each).',
  }),
  TRANSCODE_TIMEOUT_MS: integer({
    default: 86_400_000,
    shown: '24 h',
    unit: 'ms',
    min: 1,
    max: 7 * 86_400_000,
    doc: 'One transcode (probe, renditions, pictures); past it ffmpeg is killed and the video ends in status 7.',
  }),
  REMUX_GRACE_S: integer({
    default: 3600,
    shown: '1 h',
    unit: 's',
    min: 0,
    max: 7 * 86_400,
    doc: 'How long the remux (`original.mp4`) stays served after the rungs replace it, so a player that started on it plays to its end; after it the URL redirects (307) to the best rung ([processing.md](processing.md#playable-first-complete-later)).',
  }),
  HTTP_IDLE_TIMEOUT_MS: integer({
    default: 120_000,
    unit: 'ms',
    min: 1,
    max: 3_600_000,
    doc: 'A connection silent in both directions this long is closed: a client that stops reading a media file mid-reply would otherwise hold its socket and file open for ever.',
  }),
  OPS_TOKEN: text({
    type: 'secret',
    range: 'at least 16 printable characters, no spaces',
    check: (value) => {
      if (value.length < 16 || !/^[\x21-\x7e]+$/.test(value))
        throw new ConfigError('OPS_TOKEN must be at least 16 printable characters without spaces');
      return value;
    },
    doc: '`Authorization: Bearer <OPS_TOKEN>` gets `/metrics` and the reasons in `/readyz` on the service’s port; unset, no request there does ([operations.md](operations.md)). It never reaches a log or a JSON of the config.',
  }),
  OPS_PORT: integer({
    ...PORT_RANGE,
    doc: 'A second listener serving `/metrics` and the explained `/readyz` without a token; `0` picks a free port.',
  }),
  OPS_HOST: text({ default: '127.0.0.1', doc: 'Address of the `OPS_PORT` listener; keep it on loopback or a trusted network.' }),
  APP_REQUESTS_PER_S: quota('requestsPerSecond', {
    unit: 'requests/s',
    doc: 'Every app’s API and SOAP requests per second (upload pages have a budget of their own, `APP_PAGES_PER_VIDEO_PER_MIN`), where its `quota` leaves `requestsPerSecond` out; fractions allowed (`0.5`). Over it: 429 / `116` ([operations.md](operations.md#quotas)).',
  }),
  APP_REQUESTS_BURST: quota('requestsBurst', {
    shown: '2 × the rate',
    unit: 'requests',
    doc: 'Requests an app may make at once after a quiet spell (the token bucket’s size).',
  }),
  APP_UPLOADS_PER_MIN: quota('uploadsPerMinute', { unit: 'uploads/min', doc: 'tus upload creations per minute per app.' }),
  APP_UPLOADS_IN_FLIGHT: quota('uploadsInFlight', { unit: 'uploads', doc: 'Unfinished uploads per app at once.' }),
  // No unit: the rule's own words already say bytes.
  APP_STORAGE_BYTES: quota('storageBytes', {
    doc: 'Bytes stored per app (sources, uploaded or downloaded, play files and pictures); over it: 507 / `113`, and a download that would pass it ends in 4 (`storage-quota`).',
  }),
  // A person opens a page a few times a minute at most; a page reloaded in a loop is not a person.
  APP_PAGES_PER_VIDEO_PER_MIN: quota('pagesPerVideoPerMinute', {
    default: 20,
    unit: 'pages/min',
    doc: 'Upload-page loads per minute of each one video: the budget of what a browser can trigger, apart from the app’s `requestsPerSecond`, so one end user cannot starve the app’s backend. Over it: the 429 / `116` error page ([operations.md](operations.md#quotas)).',
  }),
  // Choosing another file, or a retake of a recording, starts a new upload; a few a minute is plenty.
  APP_UPLOADS_PER_VIDEO_PER_MIN: quota('uploadsPerVideoPerMinute', {
    default: 6,
    unit: 'uploads/min',
    doc: 'tus creations per minute of each one video, spent before the app’s `uploadsPerMinute`, so one page’s ticket cannot use that up for every other user. Keep `APP_UPLOADS_PER_MIN` well above it.',
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
type SettingValue<N extends SettingName> = ReturnType<(typeof SETTINGS)[N]['parse']>;

/** Whether `name` is set; an empty value counts as unset, as it does everywhere here. */
export function isSet(env: NodeJS.ProcessEnv, name: SettingName): boolean {
  return Boolean(env[name]);
}

/** The value of `name` in `env` as its table row parses it. */
export function setting<N extends SettingName>(env: NodeJS.ProcessEnv, name: N): SettingValue<N> {
  const raw = env[name];
  return SETTINGS[name].parse(raw === '' ? undefined : raw, name) as SettingValue<N>;
}
