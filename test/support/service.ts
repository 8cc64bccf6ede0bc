import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppRecord } from '../../src/server/auth/apps';
import { signToken } from '../../src/server/auth/token';
import { readConfig, type ServiceConfig } from '../../src/server/config';
import { startService, type RunningService } from '../../src/server/app';
import { silentLogger, type Logger } from '../../src/server/log';
import type { Kysely } from 'kysely';
import type { Schema } from '../../src/server/storage/schema';
import { databaseUrlFor, openTestDatabase } from './database';
import { storageEnvFor } from './storage';

export const TEST_APPS: AppRecord[] = [
  { appId: 'app-a', appSecret: 'secret-of-app-a-0123456789' },
  { appId: 'app-b', appSecret: 'secret-of-app-b-0123456789' },
];

/** Fresh AppId/Timestamp/Token for one of `apps`, as its backend would compute them. */
export function appAuth(apps: readonly AppRecord[], appId: string, at = Date.now()): { AppId: string; Timestamp: string; Token: string } {
  const app = apps.find((candidate) => candidate.appId === appId)!;
  const Timestamp = String(Math.floor(at / 1000));
  return { AppId: appId, Timestamp, Token: signToken(Timestamp, app.appSecret) };
}

/** A reply as a client sees it: status, headers and the parsed JSON body. */
export interface ApiReply {
  status: number;
  headers: Headers;
  // Replies are checked field by field in tests, so the body stays loosely typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface TestService extends RunningService {
  dataDir: string;
  /** Fresh AppId/Timestamp/Token for an app, as its backend would compute them. */
  auth(appId?: string, at?: number): { AppId: string; Timestamp: string; Token: string };
  /** GET `path` with these query parameters. */
  get(path: string, query?: Record<string, string> | URLSearchParams): Promise<ApiReply>;
  /** POST /Api/Video/Post with a form body (and optionally query parameters). */
  post(form: Record<string, string> | URLSearchParams, query?: Record<string, string>): Promise<ApiReply>;
  /**
   * A connection of its own to the service's database (SQLite or PostgreSQL, see
   * `support/database.ts`), for a test to read what was stored (or to break the storage) without
   * going through the service; closed with the service.
   */
  db: Kysely<Schema>;
  /** Rows in the videos table, read straight from the database. */
  videoCount(): Promise<number>;
  /** Stops the service; the data directory is kept unless `removeData` is true. */
  stop(removeData?: boolean): Promise<void>;
}

export interface TestServiceOptions {
  apps?: AppRecord[];
  dataDir?: string;
  env?: Record<string, string>;
  log?: Logger;
  now?: () => number;
  config?: Partial<ServiceConfig>;
  demoUrl?: string;
}

/**
 * A real service on 127.0.0.1, a free port and a temporary DATA_DIR, storing in the database
 * TEST_DATABASE picks and keeping its files where TEST_STORAGE says (an S3_* or DATABASE_URL the
 * test passes in `env` wins).
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ovu-test-'));
  const apps = options.apps ?? TEST_APPS;
  // PUBLIC_URL's port 0 becomes the port the service gets.
  const [databaseUrl, storageEnv] = await Promise.all([databaseUrlFor(dataDir), storageEnvFor(dataDir)]);
  const base = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1:0',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    ...storageEnv,
    ...options.env,
  });
  const config: ServiceConfig = { ...base, ...options.config };
  const running = await startService({ config, apps, log: options.log ?? silentLogger, now: options.now, demoUrl: options.demoUrl });
  const database = await openTestDatabase(dataDir, config.databaseUrl);
  let closing: Promise<void> | undefined;
  const close = async () => {
    await (closing ??= database.close());
    await running.close();
  };
  return {
    ...running,
    close,
    dataDir,
    auth: (appId = apps[0]!.appId, at = Date.now()) => appAuth(apps, appId, at),
    get: (path, query = {}) => reply(fetch(`${running.address}${path}?${new URLSearchParams(query)}`)),
    post: (form, query = {}) =>
      reply(fetch(`${running.address}/Api/Video/Post?${new URLSearchParams(query)}`, { method: 'POST', body: new URLSearchParams(form) })),
    db: database.db,
    async videoCount() {
      const { n } = await database.db
        .selectFrom('videos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async stop(removeData = false) {
      await close();
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function reply(response: Promise<Response>): Promise<ApiReply> {
  const res = await response;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`reply ${res.status} is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}
