import type { AppRegistry } from './auth/apps';
import type { ServiceConfig } from './config';
import type { Logger } from './log';
import type { ServiceSignals } from './signals';
import type { Db } from './storage/db';
import type { VideoStore } from './storage/videos';

/** What every part of the service is handed; there are no module-level singletons. */
export interface ServiceContext {
  config: ServiceConfig;
  db: Db;
  apps: AppRegistry;
  videos: VideoStore;
  log: Logger;
  signals: ServiceSignals;
  /** Milliseconds since 1970; a parameter so tests can move the clock. */
  now(): number;
}
