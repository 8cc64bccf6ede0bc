import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/server/auth/token';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { watchProcess, type WatchedProcess } from './support/childProcess';
import { TEST_APPS } from './support/service';
import { openUploader, registerVideo, tusCreate, tusHead, type ServiceClient } from './uploadHelpers';

/**
 * `npm start` as an operator meets it, through npm itself: a fresh clone (no dist/) builds on its
 * first start; scripts/production-install.sh (the Dockerfile's recipe) makes a tree without dev
 * dependencies that starts with no build; SIGTERM to the npm process stops everything and keeps
 * the data.
 */
const ROOT = resolve(import.meta.dirname, '..');
/** What a clone holds that the build and start read (node_modules is linked, not copied). */
const CHECKOUT = [
  'src',
  'demo',
  'scripts',
  'README.md',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'vite.config.ts',
];

const work = mkdtempSync(join(tmpdir(), 'ovu-production-'));
const clone = join(work, 'clone');
const target = join(work, 'app');
const dataDir = join(work, 'data');
const appsFile = join(work, 'apps.json');
const running: WatchedProcess[] = [];

beforeAll(() => {
  mkdirSync(clone);
  for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(clone, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  writeFileSync(appsFile, JSON.stringify(TEST_APPS));
});
afterAll(async () => {
  // After a failed test: SIGTERM first, which npm passes on; SIGKILL to npm alone would leave node running.
  for (const leftover of running) {
    leftover.stop('SIGTERM');
    await Promise.race([leftover.exit, new Promise((wake) => setTimeout(wake, 10_000))]);
    leftover.stop('SIGKILL');
  }
  rmSync(work, { recursive: true, force: true });
}, 60_000);

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

/** True when nothing accepts connections on the port any more. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolveFree(false);
    });
    socket.on('error', () => resolveFree(true));
  });
}

function npm(args: string[], cwd: string, env: Record<string, string>): WatchedProcess {
  const child = spawn('npm', args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchProcess(child);
  running.push(watched);
  return watched;
}

function serviceAt(port: number): ServiceClient {
  return {
    address: `http://127.0.0.1:${port}`,
    auth(appId = TEST_APPS[0]!.appId) {
      const Timestamp = String(Math.floor(Date.now() / 1000));
      return { AppId: appId, Timestamp, Token: signToken(Timestamp, TEST_APPS.find((app) => app.appId === appId)!.appSecret) };
    },
  };
}

/** Sends `sent` as the start of a longer PATCH body and leaves the request open, as a cut-off client would. */
function startPatch(uploadUrl: string, ticket: string, sent: Buffer): void {
  const req = request(uploadUrl, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', [TICKET_HEADER]: ticket },
  });
  req.on('error', () => {}); // the service stops under it
  req.write(sent);
}

/** The JSON (exec) form of a Dockerfile instruction, e.g. the HEALTHCHECK's `CMD [...]`. */
function dockerfileCommand(instruction: 'HEALTHCHECK' | 'CMD'): string[] {
  const line = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((text) => text.startsWith(`${instruction} `))!;
  return JSON.parse(line.slice(line.indexOf('CMD [') + 4)) as string[];
}

/** Runs the image's health check as Docker would, against a service on `port`; resolves with its exit code. */
function runHealthCheck(port: number): Promise<number | null> {
  const [command, ...args] = dockerfileCommand('HEALTHCHECK');
  return watchProcess(spawn(command!, args, { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: 'ignore' })).exit;
}

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

describe('npm start', () => {
  it('builds a fresh clone on its first start, serves it, and frees the port on SIGTERM to npm', async () => {
    const port = await freePort();
    const service = npm(['start'], clone, { PORT: String(port), DATA_DIR: dataDir, APPS_FILE: appsFile });
    await service.waitFor(/service listening/);
    expect(service.lines.join('\n')).toContain('no build in dist/: building first');
    expect((await fetch(`http://127.0.0.1:${port}/Scripts/UploadWidget/initUploadWidget.js`)).status).toBe(200);

    service.stop('SIGTERM');
    await service.exit;
    expect(await portIsFree(port)).toBe(true);
  }, 120_000);

  it('runs from a production install with no dev dependency and no rebuild, and keeps an interrupted upload across SIGTERM', async () => {
    await promisify(execFile)('sh', [join(clone, 'scripts/production-install.sh'), target]);
    for (const devOnly of ['tsx', 'vite', 'esbuild', 'typescript', 'vitest'])
      expect(existsSync(join(target, 'node_modules', devOnly))).toBe(false);
    expect(existsSync(join(target, 'src'))).toBe(false);

    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, APPS_FILE: appsFile };
    const first = npm(['start'], target, env);
    await first.waitFor(/service listening/);
    expect(first.lines.join('\n')).not.toContain('building first');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/README.md`)).status).toBe(200);
    expect(await runHealthCheck(port)).toBe(0);

    const service = serviceAt(port);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const uploadUrl = (await tusCreate(boot.tusEndpoint, boot.ticket, 1024 * 1024)).headers.get('location')!;
    const sent = Buffer.alloc(256 * 1024, 7);
    startPatch(uploadUrl, boot.ticket, sent);
    const stored = join(dataDir, 'uploads', uploadUrl.split('/').pop()!);
    await waitUntil(() => existsSync(stored) && statSync(stored).size === sent.length, 'the first bytes on disk');

    first.stop('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(await portIsFree(port)).toBe(true);
    expect(first.lines.join('\n')).not.toContain(TEST_APPS[0]!.appSecret);
    expect(await runHealthCheck(port)).toBe(1);

    const second = npm(['start'], target, env);
    try {
      await second.waitFor(/service listening/);
      expect((await tusHead(uploadUrl, boot.ticket)).headers.get('upload-offset')).toBe(String(sent.length));
      const reply = await (
        await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: videoId })}`)
      ).json();
      expect(reply.Video.Id).toBe(videoId);
    } finally {
      second.stop('SIGINT');
      await second.exit;
    }
    expect(await portIsFree(port)).toBe(true);
    // The production install (npm ci --omit=dev from the cache) alone can take most of a minute
    // on a busy 2-core machine.
  }, 180_000);

  it('runs the demo from the production install and frees both ports on SIGTERM to npm', async () => {
    const [servicePort, demoPort] = [await freePort(), await freePort()];
    const demo = npm(['run', 'demo'], target, {
      SERVICE_PORT: String(servicePort),
      DEMO_PORT: String(demoPort),
      DEMO_DATA_DIR: join(work, 'demo'),
    });
    await demo.waitFor(/Demo app:/);
    expect((await fetch(`http://localhost:${demoPort}/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${servicePort}/Scripts/UploadWidget/initUploadWidget.js`)).status).toBe(200);

    demo.stop('SIGTERM');
    expect(await demo.exit).toBe(0);
    expect(await portIsFree(servicePort)).toBe(true);
    expect(await portIsFree(demoPort)).toBe(true);
  }, 30_000);

  // The image runs the tree as a non-root user (USER node) with only DATA_DIR writable.
  it.skipIf(process.getuid?.() !== 0)(
    'runs from the production install as a user who may write only DATA_DIR, as the image does',
    async () => {
      const nobody = 65534;
      chmodSync(work, 0o755);
      const userData = join(work, 'user-data');
      mkdirSync(userData);
      chownSync(userData, nobody, nobody);
      const port = await freePort();
      const [command, ...args] = dockerfileCommand('CMD');
      const service = watchProcess(
        spawn(command!, args, {
          cwd: target,
          uid: nobody,
          gid: nobody,
          env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: userData, APPS_FILE: appsFile },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      running.push(service);
      await service.waitFor(/service listening/);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      service.stop('SIGTERM');
      expect(await service.exit).toBe(0);
    },
  );

  it('is what the Dockerfile builds and runs', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('RUN scripts/production-install.sh /app\n');
    expect(dockerfile).toContain('COPY --from=build /app /app\n');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENV .*DATA_DIR=\/data/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    const [command, script] = dockerfileCommand('CMD');
    expect([command, script]).toEqual(['node', 'scripts/start.mjs']);
    expect(existsSync(join(target, script!))).toBe(true);
  });

  it('says in one line what to do when the build is missing and cannot be made', async () => {
    renameSync(join(target, 'dist'), join(target, 'dist.away'));
    try {
      const start = watchProcess(spawn(process.execPath, ['scripts/start.mjs'], { cwd: target, stdio: ['ignore', 'pipe', 'pipe'] }));
      expect(await start.exit).toBe(1);
      expect(start.lines).toHaveLength(1);
      expect(JSON.parse(start.lines[0]!).message).toMatch(
        /^cannot start: dist\/server\/main.js is missing and the build tools \(tsx, vite, esbuild, typescript\) are not installed; run `npm install && npm run build`/,
      );
    } finally {
      renameSync(join(target, 'dist.away'), join(target, 'dist'));
    }
  });
});
