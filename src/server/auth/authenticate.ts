import { ServiceError } from '../errors';
import { acceptedSecrets, type AppRecord, type AppRegistry } from './apps';
import { isScopedTokenShape, isTimestampShape, scopedTokenMatches, timestampInWindow, tokenMatches } from './token';

export interface Credentials {
  appId: string | undefined;
  timestamp: string | undefined;
  token: string | undefined;
}

/** An authenticated request: the app, and the secret its token was signed with (current or previous). */
export interface Signed {
  app: AppRecord;
  secret: string;
}

type TokenCheck = (app: AppRecord, secret: string, token: string, timestamp: string) => boolean;

/**
 * Checks the three signed values in the spec's order of meaning: all present, a known app,
 * a timestamp inside the window, then the token, against each secret the app accepts now.
 */
function checkSigned(apps: AppRegistry, creds: Credentials, nowMs: number, names: CredentialNames, matches: TokenCheck): Signed {
  const appId = creds.appId?.trim();
  const timestamp = creds.timestamp?.trim();
  const token = creds.token?.trim();
  if (!appId) throw new ServiceError('MISSING_PARAMETER', names.appId);
  if (!timestamp) throw new ServiceError('MISSING_PARAMETER', names.timestamp);
  if (!token) throw new ServiceError('MISSING_PARAMETER', names.token);
  const app = apps.get(appId);
  if (!app) throw new ServiceError('UNKNOWN_APP');
  if (!isTimestampShape(timestamp))
    throw new ServiceError('INVALID_PARAMETER', `${names.timestamp} must be whole seconds since 1970 in decimal digits`);
  if (!timestampInWindow(timestamp, nowMs)) throw new ServiceError('TIMESTAMP_OUT_OF_RANGE', 'more than 600 seconds from the server time');
  const secret = acceptedSecrets(app, nowMs).find((candidate) => matches(app, candidate, token, timestamp));
  if (secret === undefined) throw new ServiceError('BAD_TOKEN');
  return { app, secret };
}

/**
 * Authenticates an API call (REST or SOAP): only the spec's md5 Token, never the scoped widget
 * token, which is made to open one upload page. A bad token is `104 App SecretKey Error`
 * everywhere, the upload page included.
 */
export function authenticate(apps: AppRegistry, creds: Credentials, nowMs: number, names: CredentialNames = API_NAMES): AppRecord {
  return checkSigned(apps, creds, nowMs, names, (_app, secret, token, timestamp) => tokenMatches(token, timestamp, secret)).app;
}

/**
 * Authenticates an upload page for one video: the scoped token signed for exactly that video, or
 * the md5 Token unless the app's `widgetToken` is `"scoped"`. `videoId` is read only when the
 * token is a scoped one, so its absence is reported where the page checks it otherwise.
 */
export function authenticateWidget(
  service: { apps: AppRegistry; now(): number },
  params: ParamSource & { require(name: string): string },
): Signed {
  const creds = {
    appId: params.get(WIDGET_NAMES.appId),
    timestamp: params.get(WIDGET_NAMES.timestamp),
    token: params.get(WIDGET_NAMES.token),
  };
  return checkSigned(service.apps, creds, service.now(), WIDGET_NAMES, (app, secret, token, timestamp) =>
    isScopedTokenShape(token)
      ? scopedTokenMatches(token, app.appId, timestamp, params.require('videoId'), secret)
      : app.widgetToken !== 'scoped' && tokenMatches(token, timestamp, secret),
  );
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

/** Authenticates an API call from its parameters. */
export function authenticateParams(service: { apps: AppRegistry; now(): number }, params: ParamSource): AppRecord {
  const creds = { appId: params.get(API_NAMES.appId), timestamp: params.get(API_NAMES.timestamp), token: params.get(API_NAMES.token) };
  return authenticate(service.apps, creds, service.now());
}
