import { describe, expect, it } from 'vitest';
import { isServiceError, type ErrorName } from '../errors';
import { createAppRegistry } from './apps';
import { API_NAMES, WIDGET_NAMES, authenticate, type CredentialNames, type Credentials } from './authenticate';
import { signToken } from './token';

const apps = createAppRegistry([{ appId: 'app-a', appSecret: 'secret-of-app-a-0123456789' }]);
const NOW = 1_700_000_000_000;
const good: Credentials = { appId: 'app-a', timestamp: '1700000000', token: signToken('1700000000', 'secret-of-app-a-0123456789') };

function failure(creds: Credentials, names: CredentialNames = API_NAMES): { kind: ErrorName; message: string } {
  try {
    authenticate(apps, creds, NOW, names);
  } catch (error) {
    if (isServiceError(error)) return { kind: error.kind, message: error.resultMessage };
    throw error;
  }
  throw new Error('authenticate accepted the credentials');
}

describe('authenticate', () => {
  it('returns the app for good credentials, with surrounding spaces trimmed', () => {
    expect(authenticate(apps, good, NOW).appId).toBe('app-a');
    expect(authenticate(apps, { appId: ' app-a ', timestamp: ' 1700000000', token: `${good.token} ` }, NOW).appId).toBe('app-a');
  });

  it.each([
    ['AppId', { ...good, appId: undefined }],
    ['Timestamp', { ...good, timestamp: '  ' }],
    ['Token', { ...good, token: '' }],
  ] as const)('reports a missing %s as 101 naming it', (name, creds) => {
    expect(failure(creds)).toEqual({ kind: 'MISSING_PARAMETER', message: `Missing Parameter: ${name}` });
  });

  it('names the widget options when checking the upload widget', () => {
    expect(failure({ ...good, timestamp: undefined }, WIDGET_NAMES).message).toBe('Missing Parameter: timestamp');
  });

  it('reports an unknown AppId as 102, before looking at the timestamp', () => {
    expect(failure({ ...good, appId: 'app-z', timestamp: '1' }).kind).toBe('UNKNOWN_APP');
  });

  it('reports a Timestamp that is not decimal seconds as 106', () => {
    expect(failure({ ...good, timestamp: '2023-11-14T22:13:20Z' }).kind).toBe('INVALID_PARAMETER');
  });

  it('reports a Timestamp 601 s off as 103 even when its token is right', () => {
    const timestamp = '1699999399';
    expect(failure({ ...good, timestamp, token: signToken(timestamp, 'secret-of-app-a-0123456789') }).kind).toBe('TIMESTAMP_OUT_OF_RANGE');
  });

  it('reports a wrong token as 104 App SecretKey Error', () => {
    expect(failure({ ...good, token: signToken(good.timestamp!, 'wrong-secret-0123456789') })).toEqual({
      kind: 'BAD_TOKEN',
      message: 'App SecretKey Error',
    });
  });

  it('never puts the secret in an error message', () => {
    for (const creds of [
      { ...good, token: 'x' },
      { ...good, timestamp: '1' },
    ]) {
      expect(failure(creds).message).not.toContain('secret-of-app-a');
    }
  });
});
