import Database from 'better-sqlite3';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';
import { PROJECT_VERSION } from '../src/server/project';
import { connect } from '../src/server/storage/db';
import { startServiceProcess as run } from './support/serviceProcess';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-main-'));
  dirs.push(dir);
  return dir;
}

describe('the service entry point', () => {
  it('starts on its defaults with a demo app, answers signed calls, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const service = run({ PORT: '0', DATA_DIR: dataDir });
    try {
      const notice = JSON.parse(await service.waitFor(/no APPS_FILE set/));
      expect(notice.appsFile).toBe(join(dataDir, 'demo-app.json'));
      expect(statSync(notice.appsFile).mode & 0o777).toBe(0o600);
      const listening = JSON.parse(await service.waitFor(/service listening/));
      const { address, publicUrl } = listening;
      expect(publicUrl).toBe(address.replace('127.0.0.1', 'localhost'));
      expect(listening).toMatchObject({ level: 'info', version: PROJECT_VERSION, dataDir });

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

  it('refuses a DATA_DIR it cannot write to, a missing ffmpeg and a port in use, naming the setting', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), '');
    const blocker = createServer();
    await new Promise<void>((listening) => blocker.listen(0, '127.0.0.1', listening));
    const { port } = blocker.address() as AddressInfo;
    try {
      for (const [env, message] of [
        [{ DATA_DIR: join(dir, 'a-file', 'data') }, `DATA_DIR ${join(dir, 'a-file', 'data')} is not writable (ENOTDIR)`],
        [{ DATA_DIR: dir, FFMPEG_PATH: '/nonexistent/ffmpeg' }, 'FFMPEG_PATH "/nonexistent/ffmpeg" cannot be run (not found)'],
        [{ DATA_DIR: dir, PORT: String(port) }, 'PORT is already in use'],
      ] as const) {
        const service = run({ PORT: '0', ...env });
        expect(await service.exit).toBe(1);
        const errors = service.lines.filter((line) => JSON.parse(line).level === 'error');
        expect(errors).toHaveLength(1);
        expect(JSON.parse(errors[0]!).message).toContain(message);
      }
    } finally {
      blocker.close();
    }
  });

  it('refuses a database written by a newer version, in one line', async () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'service.sqlite'));
    db.pragma('user_version = 999');
    db.close();
    const service = run({ PORT: '0', DATA_DIR: dir });
    expect(await service.exit).toBe(1);
    const errors = service.lines.filter((line) => JSON.parse(line).level === 'error');
    expect(errors.map((line) => JSON.parse(line).message)).toEqual([
      expect.stringMatching(/^DATA_DIR holds a database of schema version 999, newer than this service \(\d+\)/),
    ]);
  });

  it.each([
    {
      what: 'garbage in place of service.sqlite',
      spoil: (file: string) => writeFileSync(file, Buffer.alloc(64 * 1024, 'not a database, no header at all ')),
      reason: /cannot be used: file is not a database \(SQLITE_NOTADB\)/,
    },
    {
      what: 'a service.sqlite damaged past its header',
      spoil: async (file: string, dir: string) => {
        // The service's own schema, then every page after the first overwritten.
        await (await connect({ dataDir: dir, databaseUrl: undefined })).close();
        const size = statSync(file).size;
        const fd = openSync(file, 'r+');
        writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096);
        closeSync(fd);
      },
      reason: /cannot be used: database disk image is malformed \(SQLITE_CORRUPT\)/,
    },
    {
      what: 'a folder in place of service.sqlite',
      spoil: (file: string) => mkdirSync(file),
      reason: /cannot be used: .*\(EISDIR\)/,
    },
  ])('refuses $what at start: exit 1, one line naming the file and the reason, no stack trace', async ({ spoil, reason }) => {
    const dir = tempDir();
    const file = join(dir, 'service.sqlite');
    await spoil(file, dir);
    const service = run({ PORT: '0', DATA_DIR: dir });
    expect(await service.exit).toBe(1);
    // Every line is a JSON log line: no stack trace printed beside them.
    const entries = service.lines.map((line) => JSON.parse(line) as { level: string; message: string });
    const errors = entries.filter((entry) => entry.level === 'error').map((entry) => entry.message);
    expect(errors).toEqual([expect.stringContaining(`the database file ${file} cannot be used: `)]);
    expect(errors[0]).toMatch(reason);
  });

  it('refuses an APPS_FILE with a misspelt key, without printing its secret', async () => {
    const dir = tempDir();
    const file = join(dir, 'apps.json');
    writeFileSync(file, JSON.stringify([{ appId: 'shop', appSecret: 'never-print-this-secret', callbackURL: 'https://shop.example/cb' }]));
    const service = run({ PORT: '0', DATA_DIR: dir, APPS_FILE: file });
    expect(await service.exit).toBe(1);
    // One line: where (file:line:column, at the misspelt key) and what, quoting nothing of the file.
    const at = JSON.stringify([{ appId: 'shop', appSecret: 'never-print-this-secret' }]).length - 1;
    expect(service.lines.join('\n')).toContain(`APPS_FILE ${file}:1:${at + 1}: APPS_FILE[0] has a key that is not one of appId, appSecret`);
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
