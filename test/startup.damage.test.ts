import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../src/server/storage/db';
import { startServiceProcess as run } from './support/serviceProcess';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-damage-'));
  dirs.push(dir);
  return dir;
}

/** Starts the real service on `env` and expects it to end with exit 1 and one error line, every line JSON (no stack trace). */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const service = run({ PORT: '0', ...env });
  expect(await service.exit).toBe(1);
  const entries = service.lines.map((line) => JSON.parse(line) as { level: string; message: string });
  const errors = entries.filter((entry) => entry.level === 'error').map((entry) => entry.message);
  expect(errors).toHaveLength(1);
  expect(entries.some((entry) => entry.message === 'service listening')).toBe(false);
  return errors[0]!;
}

describe('start-up on damaged input', () => {
  it('refuses a service.sqlite with one damaged table page, naming the file, the table and what to do', async () => {
    const dir = tempDir();
    const file = join(dir, 'service.sqlite');
    await (await connect({ dataDir: dir, databaseUrl: undefined })).close();
    // Garbage over the root page of the jobs table only: the header and schema still read, and
    // nothing at start-up reads that table before the service listens.
    const db = new Database(file);
    const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'jobs'`).pluck().get() as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);

    const message = await refusedStart({ DATA_DIR: dir });
    expect(message).toMatch(new RegExp(`^the database file ${file} is damaged \\(PRAGMA quick_check: .*table jobs\\)`));
    expect(message).toContain('restore it from a backup (docs/operations.md)');
  });

  it('refuses an APPS_FILE nested 200,000 levels deep, naming its line and column', async () => {
    const dir = tempDir();
    const appsFile = join(dir, 'apps.json');
    writeFileSync(appsFile, `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(await refusedStart({ DATA_DIR: dir, APPS_FILE: appsFile })).toBe(
      `APPS_FILE ${appsFile}:1:33: not valid JSON (nested deeper than 32 levels)`,
    );
  });

  it('refuses an APPS_FILE that is not UTF-8, naming where, rather than serving a secret with U+FFFD in it', async () => {
    const dir = tempDir();
    const appsFile = join(dir, 'apps.json');
    const start = '[\n  {"appId": "shop", "appSecret": "secret-of-the-shop-';
    writeFileSync(appsFile, Buffer.concat([Buffer.from(start), Buffer.from([0xc3, 0x28]), Buffer.from('0123456789"}\n]\n')]));
    const message = await refusedStart({ DATA_DIR: dir, APPS_FILE: appsFile });
    expect(message).toBe(`APPS_FILE ${appsFile}:2:${start.length - start.indexOf('\n')}: not UTF-8 text (save the file as UTF-8)`);
  });
});
