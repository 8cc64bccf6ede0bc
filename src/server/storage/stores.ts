import { AsyncLocalStorage } from 'node:async_hooks';
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
 * that spans tables (a status change and its queued job, say) runs in one transaction: the
 * service's steps through `ServiceContext.transaction`, which is built on {@link Stores.transaction}.
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
   * for ever (one SQLite connection, or a full pool), which the test build refuses
   * ({@link RootStoresInTransactionError}). `tx.transaction` joins the open one.
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

/**
 * The root stores were called inside one of their own open transactions. On SQLite that call
 * waits for the transaction, which waits for it: the service hangs. On PostgreSQL it writes beside
 * the transaction, on another connection, and is not undone with it.
 */
export class RootStoresInTransactionError extends Error {
  override readonly name = 'RootStoresInTransactionError';
  readonly code = 'ROOT_STORES_IN_TRANSACTION';
}

/**
 * Marks the work of the root stores' open transactions, so a call on the root stores from inside
 * one fails at once, naming the call, instead of hanging. Only what a transaction's own work
 * calls is marked: another request's call beside it (several connections, on PostgreSQL) is fine.
 */
class TransactionGuard {
  private readonly work = new AsyncLocalStorage<{ open: boolean }>();

  async during<T>(transaction: () => Promise<T>): Promise<T> {
    const marker = { open: true };
    try {
      return await this.work.run(marker, transaction);
    } finally {
      // Work started inside the transaction and still running after it may use the root again.
      marker.open = false;
    }
  }

  check(call: string): void {
    if (this.work.getStore()?.open)
      throw new RootStoresInTransactionError(`stores.${call} was called inside an open transaction; use the transaction's stores`);
  }

  /** `stores`, each of its calls (and of its tables' stores) checked first. */
  wrap<S extends object>(stores: S): S {
    const checked =
      (name: string, call: (...args: unknown[]) => unknown, self: object) =>
      (...args: unknown[]) => {
        this.check(name);
        return call.apply(self, args);
      };
    const entries = Object.entries(stores).map(([key, value]: [string, unknown]) => {
      if (typeof value === 'function') return [key, checked(key, value as (...args: unknown[]) => unknown, stores)];
      if (typeof value !== 'object' || value === null) return [key, value];
      const table = new Proxy(value, {
        get: (target, method, receiver) => {
          const member: unknown = Reflect.get(target, method, receiver);
          return typeof member === 'function'
            ? checked(`${key}.${String(method)}`, member as (...args: unknown[]) => unknown, target)
            : member;
        },
      });
      return [key, table];
    });
    return Object.fromEntries(entries) as S;
  }
}

/**
 * `committed` collects the announcements of an open transaction; undefined outside one. `guard`,
 * on the root stores of a test build, marks the work of their transactions.
 */
function storesOn(db: Kysely<Schema>, dialect: Dialect, committed?: (() => void)[], guard?: TransactionGuard): Stores {
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
      const transaction = () => db.transaction().execute((tx) => work(storesOn(tx, dialect, announcements)));
      const result = await (guard ? guard.during(transaction) : transaction());
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
 * brings its schema up to date and hands out its stores. In a vitest worker (which sets VITEST: the
 * services the tests start in-process, not the processes they spawn) the root stores refuse calls from inside their own
 * transactions ({@link RootStoresInTransactionError}); production skips the check.
 */
export async function openStores(config: DatabaseConfig, guarded = process.env['VITEST'] !== undefined): Promise<ServiceStores> {
  const connection: Connection = await connect(config);
  const guard = guarded ? new TransactionGuard() : undefined;
  const stores: ServiceStores = {
    ...storesOn(connection.db, connection.dialect, undefined, guard),
    dialect: connection.dialect,
    exclusive: connection.dialect === 'sqlite',
    writeProblem: () => connection.writeProblem(),
    poolUse: () => connection.poolUse(),
    close: () => connection.close(),
  };
  return guard ? guard.wrap(stores) : stores;
}
