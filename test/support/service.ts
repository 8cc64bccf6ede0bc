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

export interface TestService extends RunningService {
  dataDir: string;
  /** Fresh AppId/Timestamp/Token for an app, as its backend would compute them. */
  auth(appId?: string, at?: number): { AppId: string; Timestamp: string; Token: string };
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
    async stop(removeData = false) {
      await running.close();
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
