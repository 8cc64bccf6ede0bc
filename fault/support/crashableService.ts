import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppRecord } from '../../src/server/auth/apps';
import { appAuth, TEST_APPS } from '../../test/support/service';
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from '../../test/support/serviceProcess';
import type { ServiceClient } from '../../test/uploadHelpers';

/** The real service in its own process, so a test can kill it with SIGKILL and start another on the same DATA_DIR. */
export interface CrashableService extends ServiceClient {
  process: ServiceProcess;
}

/** A DATA_DIR and an APPS_FILE (outside it) with the test apps; `remove()` deletes both. */
export function serviceHome(apps: readonly AppRecord[] = TEST_APPS): { dataDir: string; appsFile: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'ovu-fault-'));
  const appsFile = join(root, 'apps.json');
  writeFileSync(appsFile, JSON.stringify(apps));
  return { dataDir: join(root, 'data'), appsFile, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export async function startCrashable(
  home: { dataDir: string; appsFile: string },
  env: Record<string, string> = {},
  options: ServiceProcessOptions = {},
): Promise<CrashableService> {
  const process = startServiceProcess({ PORT: '0', DATA_DIR: home.dataDir, APPS_FILE: home.appsFile, ...env }, options);
  const { address } = JSON.parse(await process.waitFor(/service listening/)) as { address: string };
  return { process, address, auth: (appId = TEST_APPS[0]!.appId, at) => appAuth(TEST_APPS, appId, at) };
}

/** Stops a service that may already be dead, and waits for it. */
export async function stopCrashable(service: CrashableService | undefined): Promise<void> {
  if (!service) return;
  service.process.stop('SIGKILL');
  await service.process.exit;
}
