import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { startService, type RunningService } from '../src/server/app';
import { readConfig } from '../src/server/config';
import { silentLogger } from '../src/server/log';
import { issueTicket, secretTag } from '../src/server/upload/ticket';
import { startPostgres, type TestPostgres } from './support/postgres';
import { appAuth } from './support/service';
import { openUploader, registerVideo, tusCreate, type ServiceClient } from './uploadHelpers';

// The ticket key and the demo app live in the database's `settings`, made once for every instance.
const dirs: string[] = [];
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-settings-'));
  dirs.push(dir);
  return dir;
}

/** The service with no apps given: it serves the demo app of its database. */
async function startDemo(dir: string, env: Record<string, string> = {}): Promise<RunningService> {
  const config = readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, PUBLIC_URL: 'http://127.0.0.1:0', ...env });
  return startService({ config, log: silentLogger });
}

const demoSecretIn = (dir: string) => (JSON.parse(readFileSync(join(dir, 'demo-app.json'), 'utf8')) as AppRecord[])[0]!.appSecret;

/** A client of the demo app, as its backend would sign. */
function demoClient(service: RunningService, secret: string): ServiceClient {
  return { address: service.address, auth: () => appAuth([{ appId: 'demo', appSecret: secret }], 'demo') };
}

describe('an install upgraded from keeping its ticket key and demo app in DATA_DIR', () => {
  it('adopts both once: open upload pages and the demo secret keep working, and ticket.key is gone', async () => {
    const dir = dataDir();
    const oldKey = randomBytes(32);
    writeFileSync(join(dir, 'ticket.key'), oldKey.toString('hex') + '\n', { mode: 0o600 });
    const demo: AppRecord = { appId: 'demo', appSecret: 'an-older-demo-secret-0123456789' };
    writeFileSync(join(dir, 'demo-app.json'), JSON.stringify([demo]), { mode: 0o600 });

    const service = await startDemo(dir);
    try {
      const client = demoClient(service, demo.appSecret);
      // The old secret still signs; a ticket signed with the old key (an open upload page) is still taken.
      const videoId = await registerVideo(client, 'demo');
      const ticket = issueTicket(oldKey, {
        appId: 'demo',
        videoId,
        maxFileSize: 1000,
        needHandleSpecial: false,
        expiresAt: Math.floor(Date.now() / 1000) + 600,
        signedWith: secretTag(oldKey, demo.appSecret),
      });
      expect((await tusCreate(`${service.address}/UploadWidget/files`, ticket, 10)).status).toBe(201);
      expect(existsSync(join(dir, 'ticket.key'))).toBe(false);
      expect(demoSecretIn(dir)).toBe(demo.appSecret);
    } finally {
      await service.close();
    }
  });
});

describe('instances starting together on one PostgreSQL database', () => {
  it('agree on one ticket key and one demo app', async () => {
    const url = await postgres.newDatabase();
    const dirs = [dataDir(), dataDir()];
    const [one, two] = await Promise.all(dirs.map((dir) => startDemo(dir, { DATABASE_URL: url })));
    try {
      const secret = demoSecretIn(dirs[0]!);
      expect(demoSecretIn(dirs[1]!)).toBe(secret);
      // A ticket from one instance's upload page is taken by the other's tus endpoint.
      const videoId = await registerVideo(demoClient(one!, secret), 'demo');
      const boot = await openUploader(demoClient(one!, secret), videoId);
      expect((await tusCreate(`${two!.address}/UploadWidget/files`, boot.ticket, 10)).status).toBe(201);
    } finally {
      await Promise.all([one?.close(), two?.close()]);
    }
  });
});
