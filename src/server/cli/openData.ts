import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../config';
import { DATABASE_FILE } from '../storage/db';
import { openStores, type ServiceStores } from '../storage/stores';
import { CliError } from './cliError';

/**
 * The service's database, found with the service's own env (DATABASE_URL, else DATA_DIR). A
 * SQLite file that is not there is refused rather than made: a mistyped DATA_DIR would
 * otherwise show an empty service.
 */
async function openServiceData(env: NodeJS.ProcessEnv): Promise<ServiceStores> {
  const config = readConfig(env);
  if (!config.databaseUrl && !existsSync(join(config.dataDir, DATABASE_FILE))) {
    throw new CliError(
      'refused',
      `no database in DATA_DIR ${config.dataDir}: run this with the env the service runs with (DATA_DIR, or DATABASE_URL)`,
    );
  }
  return openStores(config);
}

/** Runs `work` on the service's database and closes it, whatever happens. */
export async function withServiceData<T>(env: NodeJS.ProcessEnv, work: (stores: ServiceStores) => Promise<T>): Promise<T> {
  const stores = await openServiceData(env);
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}
