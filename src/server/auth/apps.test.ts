import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppsFileError, createAppRegistry, demoApp, loadAppsFile, parseApps } from './apps';

describe('parseApps', () => {
  it('reads every documented field', () => {
    const apps = parseApps([
      {
        appId: 'shop',
        appSecret: 's3cret-of-the-shop-app',
        callbackUrl: 'https://shop.example/video-status',
        allowedOrigins: ['https://shop.example'],
        readableApps: ['blog'],
      },
      { appId: 'blog', appSecret: 'short' },
    ]);
    expect(apps).toEqual([
      {
        appId: 'shop',
        appSecret: 's3cret-of-the-shop-app',
        callbackUrl: 'https://shop.example/video-status',
        allowedOrigins: ['https://shop.example'],
        readableApps: ['blog'],
      },
      { appId: 'blog', appSecret: 'short' },
    ]);
    expect(createAppRegistry(apps).get('blog')?.appSecret).toBe('short');
    expect(createAppRegistry(apps).get('nope')).toBeUndefined();
  });

  it.each([
    ['not an array', { appId: 'a' }, 'APPS_FILE must hold a JSON array of apps'],
    ['an entry that is not an object', ['a'], 'APPS_FILE[0] must be an object'],
    ['a missing appId', [{ appSecret: 'x' }], 'APPS_FILE[0].appId must be a non-empty string'],
    ['an appId with outer spaces', [{ appId: ' a', appSecret: 'x' }], 'APPS_FILE[0].appId must be a non-empty string'],
    ['an appId listed twice', [{ appId: 'a', appSecret: 'x' }, { appId: 'a', appSecret: 'y' }], 'APPS_FILE[1].appId "a" is listed twice'],
    ['a missing appSecret', [{ appId: 'a' }], 'APPS_FILE[0].appSecret must be a non-empty string'],
    ['an appSecret that is a number', [{ appId: 'a', appSecret: 1234 }], 'APPS_FILE[0].appSecret must be a non-empty string'],
    ['a callbackUrl that is not http(s)', [{ appId: 'a', appSecret: 'x', callbackUrl: 'ftp://a/b' }], 'APPS_FILE[0].callbackUrl must be an http(s) URL'],
    ['allowedOrigins that are not a list', [{ appId: 'a', appSecret: 'x', allowedOrigins: 'https://a' }], 'APPS_FILE[0].allowedOrigins must be an array'],
    ['an allowed origin with a path', [{ appId: 'a', appSecret: 'x', allowedOrigins: ['https://a.example/page'] }], 'is not an origin'],
    ['an allowed origin whose host adds a CSP directive', [{ appId: 'a', appSecret: 'x', allowedOrigins: ['http://x;sandbox'] }], 'is not an origin'],
    ['readableApps with an empty id', [{ appId: 'a', appSecret: 'x', readableApps: [''] }], 'APPS_FILE[0].readableApps must be an array of appIds'],
    ['a misspelt key', [{ appId: 'a', appSecret: 'x', callbackURL: 'https://a' }], 'APPS_FILE[0] has unknown key(s) "callbackURL"'],
  ])('refuses %s with a message naming the place', (_name, json, message) => {
    expect(() => parseApps(json)).toThrowError(AppsFileError);
    expect(() => parseApps(json)).toThrowError(message);
  });
});

describe('loadAppsFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-apps-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file when it cannot be read', () => {
    expect(() => loadAppsFile(join(dir, 'missing.json'))).toThrowError(/APPS_FILE .*missing\.json cannot be read/);
  });

  it('names the file when it is not JSON', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '[{"appId": "a",');
    expect(() => loadAppsFile(file)).toThrowError(/APPS_FILE .*broken\.json is not valid JSON/);
  });

  it('never repeats a secret in its messages', () => {
    const file = join(dir, 'dup.json');
    writeFileSync(file, JSON.stringify([{ appId: 'a', appSecret: 'do-not-print-me' }, { appId: 'a', appSecret: 'do-not-print-me' }]));
    expect(() => loadAppsFile(file)).toThrowError(/listed twice/);
    try {
      loadAppsFile(file);
    } catch (error) {
      expect(String(error)).not.toContain('do-not-print-me');
    }
  });
});

describe('demoApp', () => {
  it('has AppId demo and a random 48-hex-digit secret', () => {
    const [first, second] = [demoApp(), demoApp()];
    expect(first.appId).toBe('demo');
    expect(first.appSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(first.appSecret).not.toBe(second.appSecret);
  });
});
