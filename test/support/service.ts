import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppRecord } from '../../src/server/auth/apps';
import { signToken } from '../../src/server/auth/token';
import { readConfig, type ServiceConfig } from '../../src/server/config';
import { startService, type RunningService } from '../../src/server/app';
import { silentLogger, type Logger } from '../../src/server/log';

export const TEST_APPS: AppRecord[] = [
  { appId: 'app-a', appSecret: 'secret-of-app-a-0123456789' },
  { appId: 'app-b', appSecret: 'secret-of-app-b-0123456789' },
];

/** A reply as a client sees it: status, headers and the parsed JSON body. */
export interface ApiReply {
  status: number;
  headers: Headers;
  // Replies are checked field by field in tests, so the body stays loosely typed.
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
  /** Rows in the videos table, read straight from SQLite. */
  videoCount(): number;
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
}

/** A real service on 127.0.0.1, a free port and a temporary DATA_DIR. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ovu-test-'));
  const apps = options.apps ?? TEST_APPS;
  const base = readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...options.env });
  const config: ServiceConfig = { ...base, ...options.config };
  const running = await startService({ config, apps, log: options.log ?? silentLogger, now: options.now });
  // PUBLIC_URL must name the real port, which is known only after listening.
  if (!options.env?.PUBLIC_URL && !options.config?.publicUrl) running.context.config.publicUrl = running.address;
  return {
    ...running,
    dataDir,
    auth(appId = apps[0]!.appId, at = Date.now()) {
      const app = apps.find((candidate) => candidate.appId === appId)!;
      const Timestamp = String(Math.floor(at / 1000));
      return { AppId: appId, Timestamp, Token: signToken(Timestamp, app.appSecret) };
    },
    get: (path, query = {}) => reply(fetch(`${running.address}${path}?${new URLSearchParams(query)}`)),
    post: (form, query = {}) =>
      reply(fetch(`${running.address}/Api/Video/Post?${new URLSearchParams(query)}`, { method: 'POST', body: new URLSearchParams(form) })),
    videoCount: () => (running.context.db.prepare('SELECT COUNT(*) AS n FROM videos').get() as { n: number }).n,
    async stop(removeData = false) {
      await running.close();
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
