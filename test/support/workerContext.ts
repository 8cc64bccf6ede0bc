import { createAppRegistry } from '../../src/server/auth/apps';
import { readConfig } from '../../src/server/config';
import { serviceContext, type ServiceContext } from '../../src/server/context';
import { silentLogger } from '../../src/server/log';
import { diskFiles } from '../../src/server/media/diskFiles';
import { metricsFor } from '../../src/server/operator/metrics';
import { serviceOutages } from '../../src/server/outages';
import { ServiceSignals } from '../../src/server/signals';
import { openStores } from '../../src/server/storage/stores';
import { databaseUrlFor } from './database';
import { TEST_APPS } from './service';

/**
 * A service context on its own database connection and no HTTP server, as a second process would
 * have: for driving processing workers directly. `env` is the service's env beside DATA_DIR. The
 * caller closes `context.stores`.
 */
export async function workerContext(dataDir: string, env: Record<string, string> = {}): Promise<ServiceContext> {
  const config = readConfig({ DATA_DIR: dataDir, ...env });
  const stores = await openStores({ dataDir, databaseUrl: await databaseUrlFor(dataDir) });
  const files = diskFiles(dataDir);
  return serviceContext({
    config,
    apps: createAppRegistry(TEST_APPS),
    stores,
    files,
    log: silentLogger,
    outages: serviceOutages({ log: silentLogger, stores, files, dataDir }),
    signals: new ServiceSignals(),
    metrics: metricsFor({ stores, config, log: silentLogger, now: Date.now }),
    now: Date.now,
  });
}
