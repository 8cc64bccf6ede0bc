import { sql, type Kysely } from 'kysely';
import { connect, type Connection, type Dialect } from '../../src/server/storage/db';
import type { Schema } from '../../src/server/storage/schema';
import { startPostgres, type TestPostgres } from './postgres';
import { testSwitch } from './testSwitch';

/**
 * The database a test service stores in, picked by `TEST_DATABASE` so that one test runs on both
 * without being written twice: `sqlite` (the default) is SQLite in the service's DATA_DIR;
 * `postgres` gives every DATA_DIR a fresh database of its own in one throwaway cluster per test
 * file, started before the file's tests and removed after them (see `scaledSetup.ts`).
 */
const testDatabase = () => testSwitch('TEST_DATABASE', ['sqlite', 'postgres']);

let cluster: Promise<TestPostgres> | undefined;
/** A DATA_DIR keeps its database across service restarts, as SQLite's file in it would. */
const databases = new Map<string, Promise<string>>();

/**
 * Starts this test file's cluster when TEST_DATABASE asks for one. Called from a hook, so that
 * initdb on a busy machine is not timed against the first test that starts a service.
 */
export async function startTestDatabases(): Promise<void> {
  if (testDatabase() === 'postgres') await (cluster ??= startPostgres());
}

/** The DATABASE_URL for a service on `dataDir`, or undefined for SQLite in it. */
export function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  if (testDatabase() === 'sqlite') return Promise.resolve(undefined);
  let url = databases.get(dataDir);
  if (!url) {
    cluster ??= startPostgres();
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

/** Removes the cluster, if this test file started one. */
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
