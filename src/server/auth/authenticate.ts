import { ApiError } from '../errors';
import type { AppRecord, AppRegistry } from './apps';
import { isTimestampShape, timestampInWindow, tokenMatches } from './token';

export interface Credentials {
  appId: string | undefined;
  timestamp: string | undefined;
  token: string | undefined;
}

/**
 * Checks the three signed values in the spec's order of meaning: all present, a known app,
 * a timestamp inside the window, then the token. Used by the API and the upload page alike,
 * so a bad token is `104 App SecretKey Error` everywhere.
 */
export function authenticate(apps: AppRegistry, creds: Credentials, nowMs: number, names: CredentialNames = API_NAMES): AppRecord {
  const appId = creds.appId?.trim();
  const timestamp = creds.timestamp?.trim();
  const token = creds.token?.trim();
  if (!appId) throw new ApiError('MISSING_PARAMETER', names.appId);
  if (!timestamp) throw new ApiError('MISSING_PARAMETER', names.timestamp);
  if (!token) throw new ApiError('MISSING_PARAMETER', names.token);
  const app = apps.get(appId);
  if (!app) throw new ApiError('UNKNOWN_APP');
  if (!isTimestampShape(timestamp)) throw new ApiError('INVALID_PARAMETER', `${names.timestamp} must be whole seconds since 1970 in decimal digits`);
  if (!timestampInWindow(timestamp, nowMs)) throw new ApiError('TIMESTAMP_OUT_OF_RANGE', 'more than 600 seconds from the server time');
  if (!tokenMatches(token, timestamp, app.appSecret)) throw new ApiError('BAD_TOKEN');
  return app;
}

/** How the three values are named in replies: the API's and the widget's spellings differ. */
export interface CredentialNames {
  appId: string;
  timestamp: string;
  token: string;
}

export const API_NAMES = { appId: 'AppId', timestamp: 'Timestamp', token: 'Token' } as const satisfies CredentialNames;
/** The upload widget's option names for the same values. */
export const WIDGET_NAMES = { appId: 'appId', timestamp: 'timestamp', token: 'token' } as const satisfies CredentialNames;

/** Where a request's named parameters come from (the API's `Params`). */
export interface ParamSource {
  get(name: string): string | undefined;
}

/** Authenticates a request from its parameters, read under the API's or the widget's names. */
export function authenticateParams(
  service: { apps: AppRegistry; now(): number },
  params: ParamSource,
  names: CredentialNames = API_NAMES,
): AppRecord {
  const creds = { appId: params.get(names.appId), timestamp: params.get(names.timestamp), token: params.get(names.token) };
  return authenticate(service.apps, creds, service.now(), names);
}
