import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../log';
import type { AppRecord } from './apps';
import { reloadAppsFile } from './appsFileReload';

const dir = mkdtempSync(join(tmpdir(), 'ovu-reload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ONE: AppRecord[] = [{ appId: 'one', appSecret: 'secret-of-one-0123456789' }];
const TWO: AppRecord[] = [...ONE, { appId: 'two', appSecret: 'secret-of-two-0123456789' }];

function setUp(name: string) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(ONE));
  const lines: { level: string; message: string }[] = [];
  const served: (readonly AppRecord[])[] = [];
  const reload = reloadAppsFile({
    file,
    served: ONE,
    replace: (apps) => served.push(apps),
    log: createLogger((line) => lines.push(JSON.parse(line))),
  });
  return { file, lines, served, reload };
}

describe('reloadAppsFile', () => {
  it('serves a file saved by rename once the burst of events settles, and only when it differs', async () => {
    const { file, lines, served, reload } = setUp('renamed.json');
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(TWO, null, 2));
      renameSync(`${file}.tmp`, file);
      await vi.waitFor(() => expect(served).toEqual([TWO]), { timeout: 5000 });
      reload.reload();
      expect(served).toHaveLength(1);
      expect(lines.map((line) => line.message)).toEqual(['APPS_FILE re-read: new set of apps served', 'APPS_FILE re-read: no change']);
    } finally {
      reload.close();
    }
  });

  it('refuses a bad file with one line, not repeated for the same file, but answered on every request', async () => {
    const { file, lines, served, reload } = setUp('bad.json');
    try {
      writeFileSync(file, '[{"appId": "one", "appSecret": "the-secret-text"');
      await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 5000 });
      writeFileSync(file, '[{"appId": "one", "appSecret": "the-secret-text"');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(lines).toHaveLength(1);
      reload.reload();
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toEqual({
          time: expect.any(String),
          level: 'error',
          message: `APPS_FILE ${file}:1:49: not valid JSON (the file ends too early); still serving the last good set`,
        });
      }
      expect(served).toEqual([]);
    } finally {
      reload.close();
    }
  });
  it('refuses a file nested 200,000 deep, or not UTF-8, on SIGHUP with file:line:column, keeping the last good set', () => {
    const { file, lines, served, reload } = setUp('hostile.json');
    try {
      writeFileSync(file, `[${'['.repeat(200_000)}${']'.repeat(200_000)}]`);
      reload.reload();
      writeFileSync(
        file,
        Buffer.concat([Buffer.from('[{"appId": "one",\n  "appSecret": "abc'), Buffer.from([0xff]), Buffer.from('def"}]')]),
      );
      reload.reload();
      expect(served).toEqual([]);
      expect(lines.map((line) => line.message)).toEqual([
        `APPS_FILE ${file}:1:33: not valid JSON (nested deeper than 32 levels); still serving the last good set`,
        `APPS_FILE ${file}:2:20: not UTF-8 text (save the file as UTF-8); still serving the last good set`,
      ]);
    } finally {
      reload.close();
    }
  });
  it('follows a symlinked file: a new target saved in its own folder is served', async () => {
    const real = mkdtempSync(join(dir, 'real-'));
    writeFileSync(join(real, 'apps.json'), JSON.stringify(ONE));
    const link = join(dir, 'linked.json');
    symlinkSync(join(real, 'apps.json'), link);
    const served: (readonly AppRecord[])[] = [];
    const reload = reloadAppsFile({ file: link, served: ONE, replace: (apps) => served.push(apps), log: createLogger(() => {}) });
    try {
      writeFileSync(join(real, 'apps.json.tmp'), JSON.stringify(TWO));
      renameSync(join(real, 'apps.json.tmp'), join(real, 'apps.json'));
      await vi.waitFor(() => expect(served).toEqual([TWO]), { timeout: 5000 });
    } finally {
      reload.close();
    }
  });
});
