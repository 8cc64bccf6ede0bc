import type { Kysely } from 'kysely';
import { CallbackStore } from './callbacks';
import { connect, type Connection, type DatabaseConfig, type Dialect, type PoolUse } from './db';
import { JobStore } from './jobs';
import { PlayFileStore } from './playFiles';
import { QuotaBucketStore } from './quotaBuckets';
import type { Schema } from './schema';
import { SettingStore } from './settings';
import { UploadStore } from './uploads';
import { VideoStore } from './videos';

/**
 * The service's data: one store per table, each the only module with SQL on its table. A step
 * that spans tables (a status change and its queued job, say) runs in {@link Stores.transaction}.
 */
export interface Stores {
  videos: VideoStore;
  playFiles: PlayFileStore;
  uploads: UploadStore;
  jobs: JobStore;
  callbacks: CallbackStore;
  settings: SettingStore;
  quotaBuckets: QuotaBucketStore;
  /**
   * Runs `work` in one transaction: all of its writes land, or none (it throws). `tx` is the
   * stores to use inside it, and only they: a query beside an open transaction may wait for it
   * for ever (one SQLite connection, or a full pool). `tx.transaction` joins the open one.
   */
  transaction<T>(work: (tx: Stores) => Promise<T>): Promise<T>;
  /**
   * Runs `announce` once what was written is committed: at once outside a transaction, after the
   * outermost commit inside one, never when it rolls back. A signal that wakes another reader
   * (a worker claiming the queued job, say) must not run before that reader can see the row.
   */
  afterCommit(announce: () => void): void;
}

export interface ServiceStores extends Stores {
  /** For the start-up log line; decisions use {@link exclusive}, so no code outside storage/ branches on it. */
  dialect: Dialect;
  /**
   * The database is a file in DATA_DIR that only this process uses (SQLite): no other instance
   * holds a job in it, and a full DATA_DIR fills the database too. False on PostgreSQL.
   */
  exclusive: boolean;
  /** Undefined when the database can take writes; otherwise why not, naming no path. */
  writeProblem(): Promise<string | undefined>;
  /** PostgreSQL's connection pool now (for /metrics); undefined on SQLite. */
  poolUse(): PoolUse | undefined;
  close(): Promise<void>;
}

/** `committed` collects the announcements of an open transaction; undefined outside one. */
function storesOn(db: Kysely<Schema>, dialect: Dialect, committed?: (() => void)[]): Stores {
  const stores: Stores = {
    videos: new VideoStore(db, dialect),
    playFiles: new PlayFileStore(db),
    uploads: new UploadStore(db),
    jobs: new JobStore(db, dialect),
    callbacks: new CallbackStore(db),
    settings: new SettingStore(db),
    quotaBuckets: new QuotaBucketStore(db, dialect),
    async transaction(work) {
      if (committed) return work(stores);
      const announcements: (() => void)[] = [];
      const result = await db.transaction().execute((tx) => work(storesOn(tx, dialect, announcements)));
      for (const announce of announcements) announce();
      return result;
    },
    afterCommit(announce) {
      if (committed) committed.push(announce);
      else announce();
    },
  };
  return stores;
}

/**
 * Opens the database (PostgreSQL when `databaseUrl` is set, SQLite in `dataDir` otherwise),
 * brings its schema up to date and hands out its stores.
 */
export async function openStores(config: DatabaseConfig): Promise<ServiceStores> {
  const connection: Connection = await connect(config);
  return {
    ...storesOn(connection.db, connection.dialect),
    dialect: connection.dialect,
    exclusive: connection.dialect === 'sqlite',
    writeProblem: () => connection.writeProblem(),
    poolUse: () => connection.poolUse(),
    close: () => connection.close(),
  };
}
