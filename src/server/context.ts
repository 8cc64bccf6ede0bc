import type { AppRegistry } from './auth/apps';
import type { ServiceConfig } from './config';
import type { Logger } from './log';
import type { MediaFiles } from './media/mediaFiles';
import type { ServiceMetrics } from './operator/metrics';
import type { ServiceSignals } from './signals';
import type { ServiceStores } from './storage/stores';
import type { Outages } from './outages';

/** What every part of the service is handed; there are no module-level singletons. */
export interface ServiceContext {
  config: ServiceConfig;
  apps: AppRegistry;
  /**
   * The only way to the database: one store per table. Inside {@link transaction} they are the
   * transaction's; the service's own, used from inside one, would wait for it (SQLite).
   */
  stores: ServiceStores;
  /** The files of videos: on local disk, or in the S3 bucket. */
  files: MediaFiles;
  log: Logger;
  /** Where a lost database or bucket, or a full disk, becomes its code and one log line per outage. */
  outages: Outages;
  signals: ServiceSignals;
  /** This service's Prometheus metrics (its own registry). */
  metrics: ServiceMetrics;
  /** Milliseconds since 1970; a parameter so tests can move the clock. */
  now(): number;
  /**
   * Runs `work` in one database transaction and hands it this context with the transaction's
   * stores: what `work` writes through `ctx` lands together, or none of it does (it throws). A
   * step that may be part of a larger one just takes the context it is given: inside a
   * transaction, `ctx.transaction` joins the open one.
   */
  transaction<T>(work: (ctx: ServiceContext) => Promise<T>): Promise<T>;
}

/** A context's parts: {@link serviceContext} adds {@link ServiceContext.transaction}. */
type ServiceParts = Omit<ServiceContext, 'transaction'>;

export function serviceContext(parts: ServiceParts): ServiceContext {
  return {
    ...parts,
    transaction: (work) => parts.stores.transaction((tx) => work(serviceContext({ ...parts, stores: { ...parts.stores, ...tx } }))),
  };
}
