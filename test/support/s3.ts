import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../src/server/config';
import { s3ClientFor } from '../../src/server/storage/s3Client';
import { freePort } from './ports';

const SWIFT_SERVERS = ['account', 'container', 'object'] as const;
/** Debian's python3 with the swift module (the `python3` on PATH may be another one). */
const PYTHON = '/usr/bin/python3';
const ACCESS_KEY = 'test:tester';
const SECRET_KEY = 'testing';

/** One node, one replica, one device: the three rings made by one Python process (~2 s, not 9 runs of swift-ring-builder). */
function ringScript(swiftDir: string, ports: Record<(typeof SWIFT_SERVERS)[number], number>): string {
  return [
    'from swift.common.ring import RingBuilder',
    ...SWIFT_SERVERS.map(
      (name) =>
        `b = RingBuilder(10, 1, 1); b.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': ${ports[name]}, 'device': 'd1', 'weight': 100}); ` +
        `b.rebalance(); b.get_ring().save('${join(swiftDir, `${name}.ring.gz`)}')`,
    ),
  ].join('\n');
}

function defaults(swiftDir: string, devices: string, port: number): string {
  return [
    '[DEFAULT]',
    `devices = ${devices}`,
    'mount_check = false',
    'bind_ip = 127.0.0.1',
    `bind_port = ${port}`,
    'workers = 0',
    `user = ${process.env.USER ?? 'root'}`,
    `swift_dir = ${swiftDir}`,
    // There is no /dev/log here; log lines go to a loopback UDP port nobody reads.
    'log_udp_host = 127.0.0.1',
    'log_udp_port = 9',
    '',
  ].join('\n');
}

function storageServerConf(name: string, swiftDir: string, devices: string, port: number): string {
  return `${defaults(swiftDir, devices, port)}
[pipeline:main]
pipeline = healthcheck ${name}-server

[filter:healthcheck]
use = egg:swift#healthcheck

[app:${name}-server]
use = egg:swift#${name}
`;
}

function proxyConf(swiftDir: string, devices: string, port: number, memcachePort: number): string {
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'listing_formats', 'copy', 'slo', 'dlo'];
  return `${defaults(swiftDir, devices, port)}
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SECRET_KEY} .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachePort}

[filter:proxy-logging]
use = egg:swift#proxy_logging
${filters.map((name) => `\n[filter:${name}]\nuse = egg:swift#${name}\n`).join('')}`;
}

function run(command: string, args: string[]): ChildProcess {
  return spawn(command, args, { stdio: 'ignore', env: { ...process.env, EVENTLET_NO_GREENDNS: 'yes' } });
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function healthy(port: number, child: ChildProcess, what: string): Promise<void> {
  // Python's start-up takes seconds per server; with two test files starting their own Swift at
  // once on a busy 2-core machine, 30 s was not always enough.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthcheck`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`${what} did not answer /healthcheck on 127.0.0.1:${port}`);
}

/** SIGTERM, then SIGKILL if it has not gone within 3 s. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const gone = await Promise.race([exited(child).then(() => true), sleep(3_000).then(() => false)]);
  if (!gone) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

/** The endpoint of the Swift a whole run shares (`scaledServers.ts`), in the env of its test processes. */
export const SHARED_S3_ENV = 'TEST_S3_ENDPOINT';

export interface TestS3 {
  /** The server's endpoint, for {@link sharedS3} in another process. */
  endpoint: string;
  /** The settings of a fresh, empty bucket of its own, as the S3_* env names carry them. */
  newBucket(): Promise<S3Settings>;
  /** The same settings as env, for a service started as a child process or through readConfig. */
  env(settings: S3Settings): Record<string, string>;
  /** A client on the server, for a test to read what reached the bucket. */
  client(): S3Client;
  /** Stops the S3 front (the proxy) and starts it again on the same port, with `whileDown` run in between. */
  outage(whileDown: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /** Milliseconds the server took to start. */
  startMs: number;
}

/** A bucket's settings as the S3_* env carries them. */
function bucketEnv(settings: S3Settings): Record<string, string> {
  return {
    S3_BUCKET: settings.bucket,
    S3_ENDPOINT: settings.endpoint ?? '',
    S3_REGION: settings.region,
    S3_ACCESS_KEY_ID: settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: settings.forcePathStyle ? '1' : '0',
  };
}

const serverSettings = (endpoint: string) =>
  ({ endpoint, region: 'us-east-1', accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, forcePathStyle: true }) as const;

/** A fresh bucket; its name is random, since test processes running side by side make theirs in one server. */
async function createBucket(client: S3Client, base: Omit<S3Settings, 'bucket'>): Promise<S3Settings> {
  const bucket = `ovu-test-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return { ...base, bucket };
}

/**
 * Buckets in a Swift another process started ({@link startS3}, at `endpoint`): a test file of a run
 * that shares one server. Only buckets and their env: the server is not this process's to stop.
 */
export function sharedS3(endpoint: string): Pick<TestS3, 'newBucket' | 'env' | 'client'> & { close(): void } {
  const base = serverSettings(endpoint);
  const client = s3ClientFor({ ...base, bucket: 'unused' });
  return { newBucket: () => createBucket(client, base), env: bucketEnv, client: () => client, close: () => client.destroy() };
}

/**
 * A throwaway S3 server: OpenStack Swift from Debian with its s3api and tempauth middleware, and
 * memcached for tempauth, all on free ports of 127.0.0.1 with their files in a temporary
 * directory (`/work/shared/notes/s3-test-server.md` says why Swift). `stop()` ends the processes
 * and removes the directory; a test run that dies first still has them killed on exit.
 */
export async function startS3(): Promise<TestS3> {
  if (!existsSync('/usr/bin/swift-proxy-server') || !existsSync('/usr/bin/memcached')) {
    throw new Error(
      'Swift is not installed: apt-get install --no-install-recommends swift swift-proxy swift-account swift-container swift-object python3-swift memcached (.ci/run does)',
    );
  }
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ovu-s3-'));
  const swiftDir = join(dir, 'etc');
  const devices = join(dir, 'srv');
  mkdirSync(swiftDir);
  mkdirSync(join(devices, 'd1'), { recursive: true });
  const children: ChildProcess[] = [];
  const killAll = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
  process.once('exit', killAll);
  try {
    const ports = { account: await freePort(), container: await freePort(), object: await freePort() };
    const proxyPort = await freePort();
    const memcachePort = await freePort();
    writeFileSync(
      join(swiftDir, 'swift.conf'),
      '[swift-hash]\nswift_hash_path_prefix = ovu-test\nswift_hash_path_suffix = ovu-test\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
    );
    for (const name of SWIFT_SERVERS)
      writeFileSync(join(swiftDir, `${name}-server.conf`), storageServerConf(name, swiftDir, devices, ports[name]));
    writeFileSync(join(swiftDir, 'proxy-server.conf'), proxyConf(swiftDir, devices, proxyPort, memcachePort));

    const rings = run(PYTHON, ['-c', ringScript(swiftDir, ports)]);
    const memcached = run('/usr/bin/memcached', [
      '-l',
      '127.0.0.1',
      '-p',
      String(memcachePort),
      '-U',
      '0',
      '-u',
      process.env.USER ?? 'root',
      '-m',
      '16',
    ]);
    children.push(memcached);
    // The storage servers read no ring at start (the proxy does), so they start beside the ring script.
    for (const name of SWIFT_SERVERS) children.push(run(`/usr/bin/swift-${name}-server`, [join(swiftDir, `${name}-server.conf`)]));
    if ((await exited(rings)) !== 0) throw new Error('the Swift rings could not be made');
    const startProxy = () => {
      const proxy = run('/usr/bin/swift-proxy-server', [join(swiftDir, 'proxy-server.conf')]);
      children.push(proxy);
      return proxy;
    };
    let proxy = startProxy();
    await Promise.all([
      ...SWIFT_SERVERS.map((name, index) => healthy(ports[name], children[index + 1]!, `swift-${name}-server`)),
      healthy(proxyPort, proxy, 'swift-proxy-server'),
    ]);
    const endpoint = `http://127.0.0.1:${proxyPort}`;
    const base = serverSettings(endpoint);
    const client = s3ClientFor({ ...base, bucket: 'unused' });
    return {
      startMs: Date.now() - started,
      endpoint,
      newBucket: () => createBucket(client, base),
      env: bucketEnv,
      client: () => client,
      async outage(whileDown) {
        await stopProcess(proxy);
        try {
          await whileDown();
        } finally {
          proxy = startProxy();
          await healthy(proxyPort, proxy, 'swift-proxy-server');
        }
      },
      async stop() {
        client.destroy();
        // Everything is thrown away, so nothing is gained by a graceful stop (0.5 to 0.9 s per file).
        killAll();
        await Promise.all(children.map(exited));
        process.off('exit', killAll);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    killAll();
    process.off('exit', killAll);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
