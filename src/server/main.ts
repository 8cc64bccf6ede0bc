import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppsFileError, SHORT_SECRET_LENGTH, demoApp, loadAppsFile, type AppRecord } from './auth/apps';
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
  const apps = loadAppsFile(file);
  log.warn('no APPS_FILE set: serving one demo app', { appId: apps[0]?.appId, appsFile: file });
  return apps;
}

function warnShortSecrets(apps: readonly AppRecord[]): void {
  for (const app of apps) {
    if (app.appSecret.length < SHORT_SECRET_LENGTH) {
      log.warn(`appSecret shorter than ${SHORT_SECRET_LENGTH} characters: tokens of this app are easier to forge`, { appId: app.appId });
    }
  }
}

/** Start-up failures an operator can fix get one clear line, not a stack trace. */
function operatorMessage(error: unknown): string | undefined {
  if (error instanceof ConfigError || error instanceof AppsFileError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `PORT is already in use: ${(error as Error).message}`;
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') return `cannot listen on HOST/PORT: ${(error as Error).message}`;
  return undefined;
}

try {
  const config = readConfig();
  const apps = loadApps(config);
  warnShortSecrets(apps);
  const service = await startService({ config, apps, log });
  // With PORT=0 the real port is known only now; links must name it unless PUBLIC_URL was set.
  if (!process.env.PUBLIC_URL && config.port === 0) {
    service.context.config.publicUrl = service.address.replace(/^http:\/\/[^:/]+/, 'http://localhost');
  }
  log.info('service listening', { address: service.address, publicUrl: service.context.config.publicUrl, dataDir: config.dataDir });
  const stop = () => {
    service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const message = operatorMessage(error);
  if (message === undefined) throw error;
  log.error(message);
  process.exit(1);
}
