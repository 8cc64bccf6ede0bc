import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports';

const run = promisify(execFile);

/** Debian's PostgreSQL server binaries (`apt-get install postgresql`), the newest major installed. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  if (majors.length === 0) throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does)');
  return join(root, majors.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

/** The address of the cluster a whole run shares (`scaledServers.ts`), in the env of its test processes. */
export const SHARED_CLUSTER_ENV = 'TEST_POSTGRES_CLUSTER';

export interface TestPostgres {
  /** The cluster's address, postgres://user@host:port, for {@link createDatabase} in another process. */
  url: string;
  /** A fresh, empty database in the cluster: postgres://…/<name>. */
  newDatabase(): Promise<string>;
  /** Stops the server and starts it again on the same port, with `whileDown` run in between. */
  outage(whileDown: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster: initdb in a temporary directory, the server on a free port of
 * 127.0.0.1 (and a socket in that directory only), removed by `stop()`. PostgreSQL refuses to run
 * as root, so under root (CI) the server runs as Debian's `postgres` user.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'ovu-pg-'));
  const asRoot = userInfo().uid === 0;
  const exec = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(dir, 'data');
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'ovu', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  // Room for the pools of every service of two test files at once when a run shares the cluster.
  const startServer = () =>
    exec('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-h 127.0.0.1 -p ${port} -k ${dir} -F -N 400`, 'start']);
  await startServer();
  const base = `postgres://ovu@127.0.0.1:${port}`;
  return {
    url: base,
    newDatabase: () => createDatabase(base),
    async outage(whileDown) {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      try {
        await whileDown();
      } finally {
        await startServer();
      }
    },
    async stop() {
      try {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A fresh, empty database in the cluster at `cluster` (postgres://user@host:port). Its name is
 * random: test processes running side by side make theirs in one cluster.
 */
export async function createDatabase(cluster: string): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${cluster}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return `${cluster}/${name}`;
}

/** Drops databases made by {@link createDatabase}, ending any session still open on them. */
export async function dropDatabases(urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  const cluster = urls[0]!.slice(0, urls[0]!.lastIndexOf('/'));
  const admin = new pg.Client({ connectionString: `${cluster}/postgres` });
  await admin.connect();
  try {
    for (const url of urls) await admin.query(`DROP DATABASE IF EXISTS ${url.slice(url.lastIndexOf('/') + 1)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
