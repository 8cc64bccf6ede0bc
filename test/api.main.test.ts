import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';

/** `npm start` minus the browser build: the real entry point in its own process. */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-main-'));
  dirs.push(dir);
  return dir;
}

interface Started {
  lines: string[];
  exit: Promise<number | null>;
  stop(): void;
  /** Resolves with the first log line that matches. */
  waitFor(pattern: RegExp): Promise<string>;
}

function run(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) waiter.resolve(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    lines,
    exit,
    stop: () => child.kill('SIGTERM'),
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((line) => pattern.test(line));
        if (seen) return resolve(seen);
        waiters.push({ pattern, resolve });
        exit.then((code) => reject(new Error(`exited with ${code} before ${pattern}:\n${lines.join('\n')}`)));
      }),
  };
}

describe('the service entry point', () => {
  it('starts on its defaults with a demo app, answers signed calls, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const service = run({ PORT: '0', DATA_DIR: dataDir });
    try {
      const notice = JSON.parse(await service.waitFor(/no APPS_FILE set/));
      expect(notice.appsFile).toBe(join(dataDir, 'demo-app.json'));
      expect(statSync(notice.appsFile).mode & 0o777).toBe(0o600);
      const { address, publicUrl } = JSON.parse(await service.waitFor(/service listening/));
      expect(publicUrl).toBe(address.replace('127.0.0.1', 'localhost'));

      const [demo] = JSON.parse(readFileSync(notice.appsFile, 'utf8'));
      expect(demo.appId).toBe('demo');
      const Timestamp = String(Math.floor(Date.now() / 1000));
      const query = new URLSearchParams({ AppId: 'demo', Timestamp, Token: signToken(Timestamp, demo.appSecret), createUser: 'nobody' });
      const reply = await (await fetch(`${address}/Api/Video/GetUserVideoList?${query}`)).json();
      expect(reply).toEqual({ AuthMsg: { ResultCode: '1', ResultMessage: 'OK' }, Total: 0, VideoList: [] });

      service.stop();
      expect(await service.exit).toBe(0);
      expect(service.lines.join('\n')).not.toContain(demo.appSecret);
    } finally {
      service.stop();
    }
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be a whole number, got "http"'],
    [{ TIME_ZONE: 'Beijing' }, 'TIME_ZONE "Beijing" is not an IANA time zone'],
    [{ APPS_FILE: '/nonexistent/apps.json' }, 'APPS_FILE /nonexistent/apps.json cannot be read'],
  ])('refuses %j with one line and exit code 1', async (env, message) => {
    const service = run({ PORT: '0', DATA_DIR: tempDir(), ...env });
    expect(await service.exit).toBe(1);
    expect(service.lines).toHaveLength(1);
    expect(JSON.parse(service.lines[0]!)).toMatchObject({ level: 'error', message: expect.stringContaining(message) });
  });

  it('refuses an APPS_FILE with a misspelt key, without printing its secret', async () => {
    const dir = tempDir();
    const file = join(dir, 'apps.json');
    writeFileSync(file, JSON.stringify([{ appId: 'shop', appSecret: 'never-print-this-secret', callbackURL: 'https://shop.example/cb' }]));
    const service = run({ PORT: '0', DATA_DIR: dir, APPS_FILE: file });
    expect(await service.exit).toBe(1);
    expect(service.lines.join('\n')).toContain('APPS_FILE[0] has unknown key(s) \\"callbackURL\\"');
    expect(service.lines.join('\n')).not.toContain('never-print-this-secret');
  });

  it('warns about a short appSecret, naming the app but not the secret', async () => {
    const dir = tempDir();
    const file = join(dir, 'apps.json');
    writeFileSync(file, JSON.stringify([{ appId: 'tiny', appSecret: 'short-s3cret' }]));
    const service = run({ PORT: '0', DATA_DIR: dir, APPS_FILE: file });
    try {
      const warning = JSON.parse(await service.waitFor(/appSecret shorter than 16/));
      expect(warning).toMatchObject({ level: 'warn', appId: 'tiny' });
      await service.waitFor(/service listening/);
      expect(service.lines.join('\n')).not.toContain('short-s3cret');
    } finally {
      service.stop();
      await service.exit;
    }
  });
});
