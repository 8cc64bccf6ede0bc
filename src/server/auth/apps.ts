import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isHttpUrl, isOrigin } from '../http/urls';
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
  /** Limits of this app; a field left out takes its `APP_*` default (quota.ts). */
  quota?: AppQuota;
}

export interface AppRegistry {
  get(appId: string): AppRecord | undefined;
  list(): readonly AppRecord[];
}

export class AppsFileError extends Error {
  override readonly name = 'AppsFileError';
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}


const KNOWN_KEYS = ['appId', 'appSecret', 'callbackUrl', 'allowedOrigins', 'readableApps', 'quota'];

/** Below this the secret is accepted (operators may have older ones) but start-up warns. */
export const SHORT_SECRET_LENGTH = 16;

/**
 * Checks an `APPS_FILE` document; every message names the entry and field at fault. Unknown keys
 * are refused, so a misspelt `callbackURL` fails at start-up instead of silently sending nothing.
 */
export function parseApps(json: unknown): AppRecord[] {
  if (!Array.isArray(json)) throw new AppsFileError('APPS_FILE must hold a JSON array of apps');
  const seen = new Set<string>();
  return json.map((entry: unknown, index) => {
    const where = `APPS_FILE[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new AppsFileError(`${where} must be an object`);
    const raw = entry as Record<string, unknown>;
    const { appId, appSecret, callbackUrl, allowedOrigins, readableApps } = raw;
    const unknown = Object.keys(raw).filter((key) => !KNOWN_KEYS.includes(key));
    if (unknown.length > 0) {
      throw new AppsFileError(`${where} has unknown key(s) ${unknown.map((key) => `"${key}"`).join(', ')}; known: ${KNOWN_KEYS.join(', ')}`);
    }
    // Requests are matched after trimming, so an id with outer spaces could never be used.
    if (typeof appId !== 'string' || appId.trim() === '' || appId.trim() !== appId) {
      throw new AppsFileError(`${where}.appId must be a non-empty string without leading or trailing spaces`);
    }
    if (seen.has(appId)) throw new AppsFileError(`${where}.appId "${appId}" is listed twice`);
    seen.add(appId);
    if (typeof appSecret !== 'string' || appSecret === '') throw new AppsFileError(`${where}.appSecret must be a non-empty string`);
    if (callbackUrl !== undefined && (typeof callbackUrl !== 'string' || !isHttpUrl(callbackUrl))) {
      throw new AppsFileError(`${where}.callbackUrl must be an http(s) URL`);
    }
    if (allowedOrigins !== undefined) {
      if (!isStringArray(allowedOrigins)) throw new AppsFileError(`${where}.allowedOrigins must be an array of origins`);
      for (const origin of allowedOrigins) {
        if (!isOrigin(origin)) {
          throw new AppsFileError(`${where}.allowedOrigins: "${origin}" is not an origin like https://example.com`);
        }
      }
    }
    if (readableApps !== undefined && (!isStringArray(readableApps) || readableApps.some((id) => id.trim() === ''))) {
      throw new AppsFileError(`${where}.readableApps must be an array of appIds`);
    }
    const app: AppRecord = { appId, appSecret };
    if (callbackUrl !== undefined) app.callbackUrl = callbackUrl as string;
    if (allowedOrigins !== undefined) app.allowedOrigins = allowedOrigins as string[];
    if (readableApps !== undefined) app.readableApps = readableApps as string[];
    if (raw.quota !== undefined) app.quota = parseQuota(raw.quota, `${where} (${appId}).quota`, AppsFileError);
    return app;
  });
}

export function createAppRegistry(apps: AppRecord[]): AppRegistry {
  const byId = new Map(apps.map((app) => [app.appId, app]));
  return { get: (appId) => byId.get(appId), list: () => apps };
}

export function loadAppsFile(path: string): AppRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AppsFileError(`APPS_FILE ${path} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppsFileError(`APPS_FILE ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseApps(json);
}

/** The demo app made when no `APPS_FILE` is given: its secret is random per data directory. */
export function demoApp(secret = randomBytes(24).toString('hex')): AppRecord {
  return { appId: 'demo', appSecret: secret };
}
