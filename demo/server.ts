import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../src/server/config';
import { exitOnStartupError, launchService } from '../src/server/launch';
import { processLogger } from '../src/server/log';
import { PROJECT_ROOT } from '../src/server/project';
import { stopOnSignals } from '../src/server/shutdown';
import { startDemoApp } from './app';

/**
 * `npm run demo`: the service and a third-party demo app beside it, on different origins and
 * sites (service http://127.0.0.1:8080, demo http://localhost:3000 by default).
 *
 *   SERVICE_PORT (8080), DEMO_PORT (3000), DEMO_DATA_DIR (./data/demo): ports and where the demo
 *   keeps its apps file (with its secret, mode 0600) and the service's DATA_DIR.
 */

const APP_ID = 'demo-app';

const log = processLogger();

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    exitOnStartupError(new ConfigError(`${name} must be a port number, got "${raw}"`), log);
  return value;
}

const servicePort = port('SERVICE_PORT', 8080);
const demoPort = port('DEMO_PORT', 3000);
const dataDir = resolve(process.env.DEMO_DATA_DIR || join(PROJECT_ROOT, 'data', 'demo'));
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const demoOrigin = `http://localhost:${demoPort}`;

/** The secret is made once and kept, so videos registered earlier stay this app's. */
function appSecret(): string {
  const file = join(dataDir, 'demo-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('hex') + '\n', { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function writeAppsFile(secret: string): string {
  const file = join(dataDir, 'apps.json');
  const apps = [{ appId: APP_ID, appSecret: secret, callbackUrl: `http://127.0.0.1:${demoPort}/callback`, allowedOrigins: [demoOrigin] }];
  writeFileSync(file, JSON.stringify(apps, null, 2) + '\n', { mode: 0o600 });
  return file;
}

/** A port taken by another process is named by the setting that chose it. */
function exitIfPortInUse(name: string, error: unknown): void {
  if ((error as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') return;
  log.error(`${name} is already in use: ${(error as Error).message}`);
  process.exit(1);
}

mkdirSync(dataDir, { recursive: true });
const secret = appSecret();
try {
  // One process for both servers: npm passes a signal to exactly this process, which stops both.
  const service = await launchService(
    {
      ...process.env,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      PUBLIC_URL: serviceUrl,
      DATA_DIR: join(dataDir, 'service'),
      APPS_FILE: writeAppsFile(secret),
    },
    log,
    { demoUrl: demoOrigin },
  ).catch((error: unknown) => {
    exitIfPortInUse('SERVICE_PORT', error);
    throw error;
  });
  const demo = await startDemoApp({ appId: APP_ID, appSecret: secret, serviceUrl, port: demoPort, publicUrl: demoOrigin }).catch(
    async (error: unknown) => {
      await service.close();
      exitIfPortInUse('DEMO_PORT', error);
      throw error;
    },
  );
  process.stdout.write(`\nService:  ${serviceUrl}\nDemo app: ${demo.origin}   <- open this in a browser\n\n`);
  stopOnSignals(async () => {
    await demo.close();
    await service.close();
  }, log);
} catch (error) {
  exitOnStartupError(error, log);
}
