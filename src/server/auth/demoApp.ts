import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import type { SettingStore } from '../storage/settings';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/privateModes';
import { demoApp, loadAppsFile, parseApps, type AppRecord } from './apps';

/**
 * Without APPS_FILE the service serves one demo app, made once per database so every instance on
 * it serves the same one. `DATA_DIR/demo-app.json` left by an earlier version is adopted (its
 * secret keeps working); otherwise the file is written as the operator's copy of the secret (the
 * signing example in docs/api.md reads it from there). The database's app is the one served; the notice names the file,
 * never the secret.
 */
export async function settleDemoApp(dataDir: string, settings: SettingStore, log: Logger, now: number): Promise<AppRecord> {
  const file = join(dataDir, 'demo-app.json');
  const kept = existsSync(file) ? loadAppsFile(file)[0] : undefined;
  const stored = parseApps([JSON.parse(await settings.settle('demo_app', JSON.stringify(kept ?? demoApp()), now))])[0]!;
  if (!kept) {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(file, JSON.stringify([stored], null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
  } else if (JSON.stringify(kept) !== JSON.stringify(stored)) {
    log.warn('DATA_DIR/demo-app.json differs from the demo app in the database; the database one is served', { appsFile: file });
  }
  log.warn('no APPS_FILE set: serving one demo app', { appId: stored.appId, appsFile: file });
  return stored;
}
