import { sql, type Kysely } from 'kysely';
import { connect, type Connection, type Dialect } from '../../src/server/storage/db';
import type { Schema } from '../../src/server/storage/schema';
import { createDatabase, dropDatabases, SHARED_CLUSTER_ENV, startPostgres } from './postgres';
import { testSwitch } from './testSwitch';

/**
 * The database a test service stores in, picked by `TEST_DATABASE` so that one test runs on both
 * without being written twice: `sqlite` (the default) is SQLite in the service's DATA_DIR;
 * `postgres` gives every DATA_DIR a fresh database of its own, in the cluster the run shares
 * (`scaledServers.ts`) or else in a throwaway one of the test file's own, started before the
 * file's tests and removed after them (see `scaledSetup.ts`).
 */
const testDatabase = () => testSwitch('TEST_DATABASE', ['sqlite', 'postgres']);

interface Cluster {
  newDatabase(): Promise<string>;
  /** Removes what this test file made: its own cluster, or its databases in the shared one. */
  stop(): Promise<void>;
}

function openCluster(): Promise<Cluster> {
  const shared = process.env[SHARED_CLUSTER_ENV];
  if (!shared) return startPostgres();
  const made: string[] = [];
  return Promise.resolve({
    async newDatabase() {
      const url = await createDatabase(shared);
      made.push(url);
      return url;
    },
    stop: () => dropDatabases(made),
  });
}

let cluster: Promise<Cluster> | undefined;
/** A DATA_DIR keeps its database across service restarts, as SQLite's file in it would. */
const databases = new Map<string, Promise<string>>();

/**
 * Starts this test file's cluster when TEST_DATABASE asks for one. Called from a hook, so that
 * initdb on a busy machine is not timed against the first test that starts a service.
 */
export async function startTestDatabases(): Promise<void> {
  if (testDatabase() === 'postgres') await (cluster ??= openCluster());
}

/** The DATABASE_URL for a service on `dataDir`, or undefined for SQLite in it. */
export function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  if (testDatabase() === 'sqlite') return Promise.resolve(undefined);
  let url = databases.get(dataDir);
  if (!url) {
    cluster ??= openCluster();
    url = cluster.then((postgres) => postgres.newDatabase());
    databases.set(dataDir, url);
  }
  return url;
}

/**
 * A connection of the test's own to the database a service on `dataDir` uses, to read what was
 * stored (or to break the storage) without going through the service.
 */
export async function openTestDatabase(dataDir: string, databaseUrl?: string): Promise<Connection> {
  return connect({ dataDir, databaseUrl: databaseUrl ?? (await databaseUrlFor(dataDir)) });
}

/** Removes the cluster, if this test file started one, or the databases it made in the shared one. */
export async function stopTestDatabases(): Promise<void> {
  const started = cluster;
  cluster = undefined;
  databases.clear();
  if (started) await (await started).stop();
}

/**
 * Makes every insert into `videos` fail, as storage refusing writes (a full disk, say) does;
 * returns what lifts it. A trigger on either database: the failure comes from the database itself.
 */
export async function refuseVideoInserts(db: Kysely<Schema>, dialect: Dialect, message: string): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    await sql`CREATE TRIGGER refuse_videos BEFORE INSERT ON videos BEGIN SELECT RAISE(ABORT, ${sql.lit(message)}); END`.execute(db);
    return async () => void (await sql`DROP TRIGGER refuse_videos`.execute(db));
  }
  await sql`CREATE FUNCTION refuse_videos() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(`BEGIN RAISE EXCEPTION '${message}'; END`)}`.execute(
    db,
  );
  await sql`CREATE TRIGGER refuse_videos BEFORE INSERT ON videos FOR EACH ROW EXECUTE FUNCTION refuse_videos()`.execute(db);
  return async () => {
    await sql`DROP TRIGGER refuse_videos ON videos`.execute(db);
    await sql`DROP FUNCTION refuse_videos()`.execute(db);
  };
}
