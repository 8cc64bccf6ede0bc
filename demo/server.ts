import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoApp } from './app';

/**
 * `npm run demo`: the service and a third-party demo app beside it, on different origins and
 * sites (service http://127.0.0.1:8080, demo http://localhost:3000 by default).
 *
 *   SERVICE_PORT (8080), DEMO_PORT (3000), DEMO_DATA_DIR (./data/demo): ports and where the demo
 *   keeps its apps file (with its secret, mode 0600) and the service's DATA_DIR.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const APP_ID = 'demo-app';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return value;
}

const servicePort = port('SERVICE_PORT', 8080);
const demoPort = port('DEMO_PORT', 3000);
const dataDir = resolve(process.env.DEMO_DATA_DIR || join(ROOT, 'data', 'demo'));
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

function startServiceProcess(appsFile: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      PUBLIC_URL: serviceUrl,
      DATA_DIR: join(dataDir, 'service'),
      APPS_FILE: appsFile,
    },
  });
}

async function waitUntilUp(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${serviceUrl}/Scripts/UploadWidget/initUploadWidget.js`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`the service did not answer at ${serviceUrl} within 30 s`);
}

mkdirSync(dataDir, { recursive: true });
const secret = appSecret();
const service = startServiceProcess(writeAppsFile(secret));
const stopService = () => {
  if (service.exitCode === null) service.kill('SIGTERM');
};
process.once('exit', stopService);
try {
  await waitUntilUp(service);
  const demo = await startDemoApp({ appId: APP_ID, appSecret: secret, serviceUrl, port: demoPort, publicUrl: demoOrigin });
  process.stdout.write(`\nService:  ${serviceUrl}\nDemo app: ${demo.origin}   <- open this in a browser\n\n`);
  const stop = () => {
    stopService();
    void demo.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  service.once('exit', (code) => {
    process.stderr.write(`the service stopped (code ${code}); stopping the demo\n`);
    void demo.close().then(() => process.exit(1));
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  stopService();
  process.exit(1);
}
