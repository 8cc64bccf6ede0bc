import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isHttpUrl, isOrigin } from '../net/urls';
import { lineAndColumn, scanJson, type JsonPath } from './jsonScan';
import { parseQuota, type AppQuota } from './quota';

/** One registered application, as listed in `APPS_FILE`. */
export interface AppRecord {
  appId: string;
  /** Never leaves the service: not in a reply, a page or a log line. */
  appSecret: string;
  /** Where status callbacks are POSTed; no callback when absent. */
  callbackUrl?: string;
  /** Origins whose pages may embed the upload widget and receive its messages. */
  allowedOrigins?: string[];
  /** Other apps (by appId) whose videos this app may list through `aId`. Default: none. */
  readableApps?: string[];
  /**
   * Which widget tokens open this app's upload pages: `'any'` (the spec's md5 Token or the scoped
   * token) or `'scoped'` (only the scoped token, which opens one video's page and never the API).
   * @default 'any'
   */
  widgetToken?: WidgetTokenPolicy;
  /** The secret before the last rotation: it still signs calls, pages and tickets until {@link previousSecretUntil}. */
  previousSecret?: string;
  /** Milliseconds since 1970 (an ISO time in `APPS_FILE`) after which `previousSecret` is refused. */
  previousSecretUntil?: number;
  /**
   * Secrets of rotations before the last one whose overlap has not ended: a second rotation within
   * an overlap keeps the first one's promise. Each is accepted until its own `until`.
   */
  olderSecrets?: OlderSecret[];
  /** Limits of this app; a field left out takes its `APP_*` default (quota.ts). */
  quota?: AppQuota;
}

/** A secret from an earlier rotation and when it stops being accepted (milliseconds since 1970). */
interface OlderSecret {
  secret: string;
  until: number;
}

const WIDGET_TOKEN_POLICIES = ['any', 'scoped'] as const;
type WidgetTokenPolicy = (typeof WIDGET_TOKEN_POLICIES)[number];

/**
 * The secrets that sign this app's requests at `nowMs`: the current one, then the previous one
 * and the older ones, each until its time is up. Callbacks are always signed with the current one alone.
 */
export function acceptedSecrets(app: AppRecord, nowMs: number): string[] {
  const previous = app.previousSecret !== undefined && app.previousSecretUntil !== undefined && nowMs < app.previousSecretUntil;
  const older = (app.olderSecrets ?? []).filter((one) => nowMs < one.until).map((one) => one.secret);
  return [app.appSecret, ...(previous ? [app.previousSecret!] : []), ...older];
}

/**
 * What an appId may be: 1 to 64 printable ASCII characters (0x21 to 0x7E). No space, tab or line
 * break, so an id cannot forge a line in a log or in `apps list`, and none is too long to show.
 */
const APP_ID = /^[\x21-\x7e]{1,64}$/;
export const APP_ID_RULE = '1 to 64 printable ASCII characters (no spaces, no control characters)';

export function isAppId(value: unknown): value is string {
  return typeof value === 'string' && APP_ID.test(value);
}

/** The registered apps. Live: the service re-reads `APPS_FILE`, so look an app up per request, never keep it. */
export interface AppRegistry {
  get(appId: string): AppRecord | undefined;
  list(): readonly AppRecord[];
}

/** The registry and the one way to change it, held by whoever re-reads `APPS_FILE`. */
export interface ReplaceableAppRegistry extends AppRegistry {
  /** Serves `apps` from the next lookup on. */
  replace(apps: readonly AppRecord[]): void;
}

/**
 * A bad `APPS_FILE`. The message quotes nothing from the file, not even an appId or a key (a
 * secret pasted in the wrong place would be logged): it names the entry and key by position, and
 * {@link loadAppsFile} adds the file, line and column.
 */
export class AppsFileError extends Error {
  override readonly name = 'AppsFileError';
  /** Where in the document, e.g. `[1, 'appId']`; empty for the document itself. */
  readonly path: JsonPath;

  constructor(message: string, path: JsonPath = []) {
    super(message);
    this.path = path;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const KNOWN_KEYS = [
  'appId',
  'appSecret',
  'callbackUrl',
  'allowedOrigins',
  'readableApps',
  'widgetToken',
  'previousSecret',
  'previousSecretUntil',
  'olderSecrets',
  'quota',
];

/** A time with its offset, so the end of a rotation cannot depend on the service's time zone. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since 1970 of an ISO time with its offset; NaN for anything else. */
const isoTime = (value: unknown) => (typeof value === 'string' && ISO_TIME.test(value) ? Date.parse(value) : Number.NaN);

/** `olderSecrets`: `[{ "secret": "…", "until": "<ISO time>" }, …]`; the error names the element at fault. */
function parseOlderSecrets(value: unknown, refuse: (message: string, ...path: (string | number)[]) => AppsFileError): OlderSecret[] {
  if (!Array.isArray(value)) throw refuse('.olderSecrets must be an array of { "secret", "until" }', 'olderSecrets');
  return value.map((one: unknown, index) => {
    const at = (message: string) => refuse(`.olderSecrets[${index}]${message}`, 'olderSecrets', index);
    if (typeof one !== 'object' || one === null || Array.isArray(one)) throw at(' must be an object { "secret", "until" }');
    const { secret, until, ...rest } = one as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw at(' has a key that is not secret or until');
    if (typeof secret !== 'string' || secret === '') throw at('.secret must be a non-empty string');
    const ms = isoTime(until);
    if (Number.isNaN(ms)) throw at('.until must be an ISO time with its offset, like 2026-01-31T12:00:00Z');
    return { secret, until: ms };
  });
}

/** Below this the secret is accepted (operators may have older ones) but start-up warns. */
export const SHORT_SECRET_LENGTH = 16;

/**
 * Checks an `APPS_FILE` document; every message names the entry and field at fault. Unknown keys
 * are refused, so a misspelt `callbackURL` fails at start-up instead of silently sending nothing.
 */
export function parseApps(json: unknown): AppRecord[] {
  if (!Array.isArray(json)) throw new AppsFileError('APPS_FILE must hold a JSON array of apps');
  const seen = new Map<string, number>();
  return json.map((entry: unknown, index) => {
    const where = `APPS_FILE[${index}]`;
    const refuse = (message: string, ...path: (string | number)[]) => new AppsFileError(`${where}${message}`, [index, ...path]);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw refuse(' must be an object');
    const raw = entry as Record<string, unknown>;
    const { appId, appSecret, callbackUrl, allowedOrigins, readableApps, widgetToken, previousSecret, previousSecretUntil } = raw;
    const unknown = Object.keys(raw).find((key) => !KNOWN_KEYS.includes(key));
    if (unknown !== undefined) throw refuse(` has a key that is not one of ${KNOWN_KEYS.join(', ')} (keys are case-sensitive)`, unknown);
    if (!isAppId(appId)) throw refuse(`.appId must be ${APP_ID_RULE}`, 'appId');
    if (seen.has(appId)) throw refuse(`.appId is listed twice (also in APPS_FILE[${seen.get(appId)}])`, 'appId');
    seen.set(appId, index);
    if (typeof appSecret !== 'string' || appSecret === '') throw refuse('.appSecret must be a non-empty string', 'appSecret');
    if (callbackUrl !== undefined && (typeof callbackUrl !== 'string' || !isHttpUrl(callbackUrl))) {
      throw refuse('.callbackUrl must be an http(s) URL', 'callbackUrl');
    }
    if (allowedOrigins !== undefined) {
      if (!isStringArray(allowedOrigins)) throw refuse('.allowedOrigins must be an array of origins', 'allowedOrigins');
      const bad = allowedOrigins.findIndex((origin) => !isOrigin(origin));
      if (bad >= 0) throw refuse(`.allowedOrigins[${bad}] is not an origin like https://example.com`, 'allowedOrigins', bad);
    }
    if (readableApps !== undefined && (!Array.isArray(readableApps) || !readableApps.every(isAppId))) {
      throw refuse(`.readableApps must be an array of appIds, each ${APP_ID_RULE}`, 'readableApps');
    }
    if (widgetToken !== undefined && !WIDGET_TOKEN_POLICIES.includes(widgetToken as WidgetTokenPolicy)) {
      throw refuse('.widgetToken must be "any" or "scoped"', 'widgetToken');
    }
    if (previousSecret !== undefined && (typeof previousSecret !== 'string' || previousSecret === '')) {
      throw refuse('.previousSecret must be a non-empty string', 'previousSecret');
    }
    const until = isoTime(previousSecretUntil);
    if (previousSecretUntil !== undefined && Number.isNaN(until)) {
      throw refuse('.previousSecretUntil must be an ISO time with its offset, like 2026-01-31T12:00:00Z', 'previousSecretUntil');
    }
    if ((previousSecret === undefined) !== (previousSecretUntil === undefined)) {
      throw refuse(
        ': previousSecret and previousSecretUntil go together',
        previousSecret === undefined ? 'previousSecretUntil' : 'previousSecret',
      );
    }
    const app: AppRecord = { appId, appSecret };
    if (callbackUrl !== undefined) app.callbackUrl = callbackUrl as string;
    if (allowedOrigins !== undefined) app.allowedOrigins = allowedOrigins;
    if (readableApps !== undefined) app.readableApps = readableApps as string[];
    if (widgetToken !== undefined) app.widgetToken = widgetToken as WidgetTokenPolicy;
    if (previousSecret !== undefined) {
      app.previousSecret = previousSecret as string;
      app.previousSecretUntil = until;
    }
    if (raw.olderSecrets !== undefined) app.olderSecrets = parseOlderSecrets(raw.olderSecrets, refuse);
    if (raw.quota !== undefined)
      app.quota = parseQuota(raw.quota, (message, field) => refuse(`.quota${message}`, 'quota', ...(field === undefined ? [] : [field])));
    return app;
  });
}

export function createAppRegistry(apps: readonly AppRecord[]): ReplaceableAppRegistry {
  let current = apps;
  let byId = new Map(apps.map((app) => [app.appId, app]));
  return {
    get: (appId) => byId.get(appId),
    list: () => current,
    replace(next) {
      current = next;
      byId = new Map(next.map((app) => [app.appId, app]));
    },
  };
}

/**
 * Parses the text of an `APPS_FILE`. Every refusal is one line, `APPS_FILE <file>:<line>:<column>:
 * <what is wrong>`, and quotes nothing of the text (V8's JSON.parse messages would). The scanner
 * goes first: it also refuses what JSON.parse takes but nothing here should (nesting 200,000 deep).
 */
export function parseAppsText(text: string, file: string): AppRecord[] {
  const where = (offset: number) => {
    const { line, column } = lineAndColumn(text, offset);
    return `APPS_FILE ${file}:${line}:${column}`;
  };
  const scan = scanJson(text);
  if (!scan.ok) throw new AppsFileError(`${where(scan.offset)}: not valid JSON (${scan.reason})`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse and the scanner follow one grammar; should they ever differ, the start is named.
    throw new AppsFileError(`${where(0)}: not valid JSON (refused by the parser)`);
  }
  try {
    return parseApps(json);
  } catch (error) {
    if (!(error instanceof AppsFileError)) throw error;
    throw new AppsFileError(`${where(scan.positionOf(error.path))}: ${error.message}`, error.path);
  }
}

/**
 * The file's bytes as text, refused unless they are UTF-8 throughout: a stray byte decoded as
 * U+FFFD inside a secret would make a secret nobody holds. The refusal names the line and column
 * of the first such byte.
 */
function decodeAppsFile(bytes: Buffer, file: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // The valid start re-encodes to the same bytes; the first difference is at the bad sequence,
  // or inside it, so step back to the byte that began it.
  const again = Buffer.from(bytes.toString('utf8'), 'utf8');
  let bad = 0;
  while (bad < bytes.length && bytes[bad] === again[bad]) bad++;
  while (bad > 0 && (bytes[bad]! & 0xc0) === 0x80) bad--;
  const before = bytes.subarray(0, bad).toString('utf8');
  const { line, column } = lineAndColumn(before, before.length);
  throw new AppsFileError(`APPS_FILE ${file}:${line}:${column}: not UTF-8 text (save the file as UTF-8)`);
}

export function loadAppsFile(path: string): AppRecord[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    // The code alone (ENOENT, EACCES): the message adds nothing but the path, named already.
    throw new AppsFileError(`APPS_FILE ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'EIO'})`);
  }
  return parseAppsText(decodeAppsFile(bytes, path), path);
}

/** The demo app made when no `APPS_FILE` is given: its secret is random per data directory. */
export function demoApp(secret = randomBytes(24).toString('hex')): AppRecord {
  return { appId: 'demo', appSecret: secret };
}
