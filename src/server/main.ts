import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppsFileError, demoApp, loadAppsFile, parseApps, type AppRecord } from './auth/apps';
import { ConfigError, readConfig, type ServiceConfig } from './config';
import { startService } from './app';
import { createLogger } from './log';

const log = createLogger();

/**
 * Without APPS_FILE, one demo app is kept in DATA_DIR/demo-app.json (made on first start) so its
 * secret survives restarts; the notice names the file, never the secret.
 */
function loadApps(config: ServiceConfig): AppRecord[] {
  if (config.appsFile) return loadAppsFile(config.appsFile);
  const file = join(config.dataDir, 'demo-app.json');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify([demoApp()], null, 2) + '\n', { mode: 0o600 });
  }
  const apps = parseApps(JSON.parse(readFileSync(file, 'utf8')));
  log.warn('no APPS_FILE set: serving one demo app', { appId: apps[0]?.appId, appsFile: file });
  return apps;
}

try {
  const config = readConfig();
  const service = await startService({ config, apps: loadApps(config), log });
  log.info('service listening', { address: service.address, publicUrl: config.publicUrl, dataDir: config.dataDir });
  const stop = () => {
    service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof ConfigError || error instanceof AppsFileError) {
    log.error(error.message);
    process.exit(1);
  }
  throw error;
}
