import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptedSecrets, AppsFileError, createAppRegistry, demoApp, loadAppsFile, parseApps, parseAppsText } from './apps';

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
    [
      'a missing appId',
      [{ appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId with outer spaces',
      [{ appId: ' a', appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId with a line break',
      [{ appId: 'a\nb', appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId with a tab',
      [{ appId: 'a\tb', appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId of 65 characters',
      [{ appId: 'a'.repeat(65), appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId that is not ASCII',
      [{ appId: 'café', appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an empty appId',
      [{ appId: '', appSecret: 'x' }],
      'APPS_FILE[0].appId must be 1 to 64 printable ASCII characters (no spaces, no control characters)',
    ],
    [
      'an appId listed twice',
      [
        { appId: 'a', appSecret: 'x' },
        { appId: 'a', appSecret: 'y' },
      ],
      'APPS_FILE[1].appId is listed twice (also in APPS_FILE[0])',
    ],
    ['a missing appSecret', [{ appId: 'a' }], 'APPS_FILE[0].appSecret must be a non-empty string'],
    ['an appSecret that is a number', [{ appId: 'a', appSecret: 1234 }], 'APPS_FILE[0].appSecret must be a non-empty string'],
    [
      'a callbackUrl that is not http(s)',
      [{ appId: 'a', appSecret: 'x', callbackUrl: 'ftp://a/b' }],
      'APPS_FILE[0].callbackUrl must be an http(s) URL',
    ],
    [
      'allowedOrigins that are not a list',
      [{ appId: 'a', appSecret: 'x', allowedOrigins: 'https://a' }],
      'APPS_FILE[0].allowedOrigins must be an array',
    ],
    [
      'an allowed origin with a path',
      [{ appId: 'a', appSecret: 'x', allowedOrigins: ['https://a.example', 'https://a.example/page'] }],
      'APPS_FILE[0].allowedOrigins[1] is not an origin',
    ],
    [
      'an allowed origin whose host adds a CSP directive',
      [{ appId: 'a', appSecret: 'x', allowedOrigins: ['http://x;sandbox'] }],
      'is not an origin',
    ],
    [
      'readableApps with an empty id',
      [{ appId: 'a', appSecret: 'x', readableApps: [''] }],
      'APPS_FILE[0].readableApps must be an array of appIds',
    ],
    [
      'readableApps with a line break in an id',
      [{ appId: 'a', appSecret: 'x', readableApps: ['b\nc'] }],
      'APPS_FILE[0].readableApps must be an array of appIds',
    ],
    [
      'an olderSecrets entry without its end',
      [{ appId: 'a', appSecret: 'x', olderSecrets: [{ secret: 'y', until: '2026-01-31T12:00:00Z' }, { secret: 'z' }] }],
      'APPS_FILE[0].olderSecrets[1].until must be an ISO time',
    ],
    [
      'a misspelt key',
      [{ appId: 'a', appSecret: 'x', callbackURL: 'https://a' }],
      'APPS_FILE[0] has a key that is not one of appId, appSecret',
    ],
    ['an unknown widgetToken', [{ appId: 'a', appSecret: 'x', widgetToken: 'md5' }], 'APPS_FILE[0].widgetToken must be "any" or "scoped"'],
    [
      'a previousSecretUntil without offset',
      [{ appId: 'a', appSecret: 'x', previousSecret: 'y', previousSecretUntil: '2026-01-31T12:00:00' }],
      'APPS_FILE[0].previousSecretUntil must be an ISO time',
    ],
    [
      'a previousSecret without its end',
      [{ appId: 'a', appSecret: 'x', previousSecret: 'y' }],
      'APPS_FILE[0]: previousSecret and previousSecretUntil go together',
    ],
  ])('refuses %s with a message naming the place', (_name, json, message) => {
    expect(() => parseApps(json)).toThrowError(AppsFileError);
    expect(() => parseApps(json)).toThrowError(message);
  });
});

describe('rotation fields', () => {
  it('reads widgetToken, previousSecret and previousSecretUntil (an ISO time, as milliseconds)', () => {
    const [app] = parseApps([
      { appId: 'a', appSecret: 'new', widgetToken: 'scoped', previousSecret: 'old', previousSecretUntil: '2026-01-31T12:00:00+08:00' },
    ]);
    expect(app).toEqual({
      appId: 'a',
      appSecret: 'new',
      widgetToken: 'scoped',
      previousSecret: 'old',
      previousSecretUntil: Date.parse('2026-01-31T04:00:00Z'),
    });
  });

  it('accepts each older secret until its own time, beside the previous one', () => {
    const [app] = parseApps([
      {
        appId: 'a',
        appSecret: 'third',
        previousSecret: 'second',
        previousSecretUntil: '2026-02-01T12:00:00Z',
        olderSecrets: [{ secret: 'first', until: '2026-01-31T12:00:00Z' }],
      },
    ]);
    const first = Date.parse('2026-01-31T12:00:00Z');
    expect(app!.olderSecrets).toEqual([{ secret: 'first', until: first }]);
    expect(acceptedSecrets(app!, first - 1)).toEqual(['third', 'second', 'first']);
    expect(acceptedSecrets(app!, first)).toEqual(['third', 'second']);
  });

  it('takes an appId of 64 printable ASCII characters, quotes and angle brackets included', () => {
    const id = `a"<>'${'~'.repeat(58)}!`;
    expect(id).toHaveLength(64);
    expect(parseApps([{ appId: id, appSecret: 'x' }])[0]!.appId).toBe(id);
  });

  it('accepts the previous secret until previousSecretUntil, then only the current one', () => {
    const [app] = parseApps([{ appId: 'a', appSecret: 'new', previousSecret: 'old', previousSecretUntil: '2026-01-31T12:00:00Z' }]);
    const until = Date.parse('2026-01-31T12:00:00Z');
    expect(acceptedSecrets(app!, until - 1)).toEqual(['new', 'old']);
    expect(acceptedSecrets(app!, until)).toEqual(['new']);
  });
});

describe('a live registry', () => {
  it('serves the replaced set from the next lookup on', () => {
    const registry = createAppRegistry([{ appId: 'a', appSecret: 'one' }]);
    registry.replace([{ appId: 'b', appSecret: 'two' }]);
    expect(registry.get('a')).toBeUndefined();
    expect(registry.get('b')?.appSecret).toBe('two');
    expect(registry.list().map((app) => app.appId)).toEqual(['b']);
  });
});

describe('parseAppsText: one line with file, line and column, and nothing of the text', () => {
  const SECRET = 'never-print-this-secret-0123';
  const refusal = (text: string): string => {
    try {
      parseAppsText(text, '/etc/ovu/apps.json');
    } catch (error) {
      expect(error).toBeInstanceOf(AppsFileError);
      const message = (error as Error).message;
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain('\n');
      return message;
    }
    throw new Error('expected a refusal');
  };

  it.each([
    [
      'a missing comma after the secret',
      `[\n  {\n    "appId": "a",\n    "appSecret": "${SECRET}"\n    "callbackUrl": "https://a.example"\n  }\n]\n`,
      '5:5',
      'expected , or } after a value',
    ],
    ['a trailing comma', `[{"appId": "a", "appSecret": "${SECRET}"},\n]`, '2:1', 'expected a value'],
    ['a string never closed', `[{"appId": "a",\n "appSecret": "${SECRET}}]`, '2:15', 'a string that is never closed'],
    [
      'a control character in the secret',
      `[{"appId": "a", "appSecret": "${SECRET}\u0001"}]`,
      '1:59',
      'a control character inside a string',
    ],
    ['a bad escape', `[{"appId": "a", "appSecret": "${SECRET}\\x"}]`, '1:59', 'a bad escape inside a string'],
    ['the end of the file', `[{"appId": "a", "appSecret": "${SECRET}"`, '1:60', 'the file ends too early'],
    ['text after the array', `[]\n${SECRET}`, '2:1', 'more text after the JSON value'],
    ['a comment', `// ${SECRET}\n[]`, '1:1', 'expected a value'],
  ])('%s', (_name, text, place, reason) => {
    expect(refusal(text)).toBe(`APPS_FILE /etc/ovu/apps.json:${place}: not valid JSON (${reason})`);
  });

  it('places a refused entry at its key, quoting neither the key nor the value', () => {
    const text = `[\n  {"appId": "a", "appSecret": "x"},\n  {"appId": "b", "appSecret": "y", "${SECRET}": 1}\n]`;
    expect(refusal(text)).toBe(
      'APPS_FILE /etc/ovu/apps.json:3:36: APPS_FILE[1] has a key that is not one of appId, appSecret, callbackUrl, allowedOrigins, readableApps, widgetToken, previousSecret, previousSecretUntil, olderSecrets, quota (keys are case-sensitive)',
    );
    const twice = `[\n  {"appId": "${SECRET}", "appSecret": "x"},\n  {"appSecret": "y", "appId": "${SECRET}"}\n]`;
    expect(refusal(twice)).toBe('APPS_FILE /etc/ovu/apps.json:3:22: APPS_FILE[1].appId is listed twice (also in APPS_FILE[0])');
    expect(refusal('[{"appId": "a"}]')).toBe('APPS_FILE /etc/ovu/apps.json:1:2: APPS_FILE[0].appSecret must be a non-empty string');
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
    expect(() => loadAppsFile(file)).toThrowError(/^APPS_FILE .*broken\.json:1:16: not valid JSON \(the file ends too early\)$/);
  });

  it('never repeats a secret in its messages', () => {
    const file = join(dir, 'dup.json');
    writeFileSync(
      file,
      JSON.stringify([
        { appId: 'a', appSecret: 'do-not-print-me' },
        { appId: 'a', appSecret: 'do-not-print-me' },
      ]),
    );
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
