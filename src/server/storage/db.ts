import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type DatabaseConnection, type Driver } from 'kysely';
import pg from 'pg';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './migrations';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateModes';
import type { Schema } from './schema';
import { DatabaseConnectError } from './unavailable';

/** A raw SQLite connection (tests read what the service stored through one). */
export type Db = Database.Database;
export type Dialect = 'sqlite' | 'postgres';

/** The database was written by a newer version of the service; only a backup brings an older one back. */
export class SchemaVersionError extends Error {
  override readonly name = 'SchemaVersionError';
}

/** The database named by DATABASE_URL could not be reached or used at start-up. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** SQLite's file in DATA_DIR cannot be opened or read (garbage, damaged, unreadable); the message names the file and SQLite's reason. */
export class DatabaseFileError extends Error {
  override readonly name = 'DatabaseFileError';
}

/** The database's file name in DATA_DIR. */
export const DATABASE_FILE = 'service.sqlite';

/** Opens (creating when needed) `service.sqlite` in the data directory, private to the service. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = join(dataDir, DATABASE_FILE);
  // SQLite makes the file with the umask's mode, and its -wal and -shm files copy the database's.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** The query layer over one database, schema up to date. */
export interface Connection {
  db: Kysely<Schema>;
  dialect: Dialect;
  /** Undefined when the database takes writes; otherwise why not, naming no path and no secret. */
  writeProblem(): Promise<string | undefined>;
  /** PostgreSQL's connection pool now; undefined on SQLite, which has one connection and no pool. */
  poolUse(): PoolUse | undefined;
  close(): Promise<void>;
}

/** Connections of the pool: open (`total`), of those not in use (`idle`), and queries waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DatabaseConfig {
  dataDir: string;
  /** postgres://… selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl: string | undefined;
}

export async function connect(config: DatabaseConfig): Promise<Connection> {
  const connection = config.databaseUrl ? await connectPostgres(config.databaseUrl) : connectSqlite(config.dataDir);
  try {
    await migrate(connection);
    return connection;
  } catch (error) {
    await connection.close();
    // A file damaged past its header (SQLITE_CORRUPT) fails only when the schema is read.
    if (connection.dialect === 'sqlite' && isFileProblem(error)) throw fileError(join(config.dataDir, DATABASE_FILE), error);
    throw error;
  }
}

type SqliteConnection = Connection & { raw: Db };

/**
 * SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM);
 * Kysely's ROLLBACK after that fails with "cannot rollback - no transaction is active" and throws
 * that instead of the cause. Here a rollback is sent only while a transaction is open.
 */
class SqliteDialectKeepingCause extends SqliteDialect {
  private readonly raw: Db;

  constructor(raw: Db) {
    super({ database: raw });
    this.raw = raw;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection: DatabaseConnection) => {
      if (this.raw.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/**
 * What SQLite says of a file it cannot use (not a database, damaged, unreadable, unwritable) and
 * the file system's own errors (`EACCES`, `EISDIR`…); not a statement's error, which is a bug.
 */
function isFileProblem(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    typeof code === 'string' &&
    /^(SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR|READONLY|PERM|FULL)(_\w+)?|E[A-Z]+)$/.test(code)
  );
}

function fileError(file: string, error: Error & { code: string }): DatabaseFileError {
  const reason = error.message.replace(/^[A-Z]+: /, '').split('\n')[0];
  return new DatabaseFileError(
    `the database file ${file} cannot be used: ${reason} (${error.code}); restore it from a backup (docs/operations.md), or move it away to start empty`,
  );
}

/**
 * SQLite's first finding of `PRAGMA quick_check` with the table it is in (page numbers and
 * names, no row's content), or undefined when the file is whole. SQLite may end the check with
 * SQLITE_CORRUPT after its first finding; that finding is the one told.
 */
function quickCheck(raw: Db): string | undefined {
  const findings: string[] = [];
  try {
    for (const row of raw.prepare('PRAGMA quick_check(1)').pluck().iterate()) findings.push(String(row));
  } catch (error) {
    if (findings.length === 0) throw error;
  }
  if (findings[0] === 'ok') return undefined;
  const finding = findings[0]!.replace(/^\*\*\* in database \w+ \*\*\*\n/, '').split('\n')[0]!;
  const tree = /^Tree (\d+) /.exec(finding)?.[1];
  const table = tree && (raw.prepare('SELECT name FROM sqlite_master WHERE rootpage = ?').pluck().get(Number(tree)) as string | undefined);
  return table ? `${finding}, table ${table}` : finding;
}

function connectSqlite(dataDir: string): SqliteConnection {
  const file = join(dataDir, DATABASE_FILE);
  let raw: Db;
  let damage: string | undefined;
  try {
    raw = openDatabase(dataDir);
    // A file of garbage opens; the first read of its header is what fails.
    raw.prepare('SELECT count(*) FROM sqlite_master').get();
    // One damaged page of one table fails only when that table is read, maybe long after the
    // start (a job claimed, a video listed): the whole file is checked now instead.
    damage = quickCheck(raw);
  } catch (error) {
    throw isFileProblem(error) ? fileError(file, error) : error;
  }
  if (damage !== undefined) {
    raw.close();
    throw new DatabaseFileError(
      `the database file ${file} is damaged (PRAGMA quick_check: ${damage}); stop every instance, restore it from a backup (docs/operations.md), or move it away to start empty`,
    );
  }
  const db = new Kysely<Schema>({ dialect: new SqliteDialectKeepingCause(raw) });
  return {
    raw,
    db,
    dialect: 'sqlite',
    async writeProblem() {
      // A removed file keeps working through the open handle, but everything written then is lost at the next start.
      if (!existsSync(join(dataDir, DATABASE_FILE))) return 'the database file is missing from DATA_DIR';
      // Takes the write lock and gives it back: fails when the database is read-only or stays
      // locked. Through the query layer's own connection lock, never beside a transaction of its.
      return db.connection().execute(async (connection) => {
        try {
          await sql`BEGIN IMMEDIATE`.execute(connection);
          await sql`ROLLBACK`.execute(connection);
          return undefined;
        } catch (error) {
          if (raw.inTransaction) await sql`ROLLBACK`.execute(connection);
          return `not writable (${(error as { code?: string }).code ?? 'error'})`;
        }
      });
    },
    poolUse: () => undefined,
    // Kysely's destroy closes the better-sqlite3 handle.
    close: () => db.destroy(),
  };
}

// Milliseconds and byte counts are bigint columns; they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

/** Connections one instance opens at most; several instances multiply it (PostgreSQL's max_connections). */
const POOL_MAX = 10;

async function connectPostgres(url: string): Promise<Connection> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX });
  // An idle client losing its server (a restart) must not end the process; the next query reconnects.
  pool.on('error', () => {});
  // A server lost while a client is checked out fails its query (which answers 114) and also emits
  // 'error' on the client; pg-pool listens only while the client is idle, and an unheard 'error'
  // would end the process. The pool drops the dead client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw new DatabaseUnavailableError(`DATABASE_URL cannot be reached (${(error as { code?: string }).code ?? String(error)})`);
  }
  // Every failure to open a connection means the database is away, whatever the socket said.
  const connectingPool = {
    connect: () => pool.connect().catch((error: unknown) => Promise.reject(new DatabaseConnectError(error))),
    end: () => pool.end(),
  };
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: connectingPool }) });
  return {
    db,
    dialect: 'postgres',
    async writeProblem() {
      try {
        await sql`SELECT 1`.execute(db);
        return undefined;
      } catch (error) {
        return `not reachable (${(error as { code?: string }).code ?? 'error'})`;
      }
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
    close: () => db.destroy(),
  };
}

/** SQLite databases made before the query layer recorded their version in `user_version` only. */
async function adoptSqliteVersion(connection: Connection, names: readonly string[]): Promise<void> {
  if (connection.dialect !== 'sqlite') return;
  const { raw } = connection as SqliteConnection;
  const version = raw.pragma('user_version', { simple: true }) as number;
  if (version > names.length) {
    throw new SchemaVersionError(
      `DATA_DIR holds a database of schema version ${version}, newer than this service (${names.length}): run the newer version, or restore the backup made before upgrading`,
    );
  }
  const known = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`).get();
  if (known || version === 0) return;
  raw.transaction(() => {
    raw.exec('CREATE TABLE kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)');
    const add = raw.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)');
    for (const name of names.slice(0, version)) add.run(name, new Date().toISOString());
  })();
}

async function migrate(connection: Connection): Promise<void> {
  const all = migrations(connection.dialect);
  const names = Object.keys(all).sort();
  await adoptSqliteVersion(connection, names);
  const migrator = new Migrator({ db: connection.db, provider: { getMigrations: async () => all } });
  const applied = (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).length;
  const { error } = await migrator.migrateToLatest();
  if (error) {
    // Kysely refuses a database that ran migrations this version does not know.
    if (String(error).includes('corrupted migrations')) {
      throw new SchemaVersionError(
        `the database holds schema migrations newer than this service (${names.length}, ${applied} known applied): run the newer version, or restore the backup made before upgrading`,
      );
    }
    throw error;
  }
  if (connection.dialect === 'sqlite') (connection as SqliteConnection).raw.pragma(`user_version = ${names.length}`);
}
