import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppRegistry, type AppRecord } from './auth/apps';
import { startCallbackDelivery } from './callbacks/delivery';
import type { ServiceConfig } from './config';
import type { ServiceContext } from './context';
import { ApiError, isApiError } from './errors';
import { sendApiError } from './http/reply';
import { matchRoute, requestUrl, type Route } from './http/router';
import { createLogger, type Logger } from './log';
import { enqueueJob } from './processing/pipeline';
import { ProcessingWorker, recoverInterruptedJobs } from './processing/queue';
import { apiRoutes } from './routes';
import { ServiceSignals } from './signals';
import { openDatabase } from './storage/db';
import { VideoStore } from './storage/videos';
import { createUploadService } from './upload/uploadService';

export interface ServiceOptions {
  config: ServiceConfig;
  apps: AppRecord[];
  log?: Logger;
  now?: () => number;
}

export interface RunningService {
  context: ServiceContext;
  server: Server;
  /** The bound address, e.g. http://127.0.0.1:8080 (differs from PUBLIC_URL behind a proxy). */
  address: string;
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? createLogger();
  const db = openDatabase(options.config.dataDir);
  const context: ServiceContext = {
    config: options.config,
    db,
    apps: createAppRegistry(options.apps),
    videos: new VideoStore(db),
    log,
    signals: new ServiceSignals(),
    now: options.now ?? Date.now,
  };
  // Before any request or worker runs: jobs cut off by the last stop go back to the queue.
  recoverInterruptedJobs(context);
  const worker = new ProcessingWorker(context, { concurrency: options.config.processingConcurrency });
  const uploads = createUploadService(context);
  // An upload whose finish hook never ran (crash, kill) is finished before new requests arrive.
  await uploads.recheck();
  const routes: Route[] = apiRoutes(context, {
    onRegistered: (videoId, sourceGetType) => {
      if (sourceGetType === 2) enqueueJob(context, videoId, 'download');
    },
    uploads,
  });

  const server = createServer(async (req, res) => {
    const url = requestUrl(req.url);
    try {
      if (!url) throw new ApiError('INVALID_PARAMETER', 'the request target is not a valid URL');
      const handler = matchRoute(routes, req.method ?? 'GET', url.pathname);
      await handler({ req, res, url });
    } catch (error) {
      const apiError = isApiError(error) ? error : new ApiError('INTERNAL');
      if (!isApiError(error)) log.error('unhandled error', { path: url?.pathname, error: String((error as Error)?.stack ?? error) });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Drain what the client is still sending so it reads the reply instead of a reset.
      req.resume();
      sendApiError(res, apiError);
    }
  });

  // Idle sockets have no limit by default; with no 'timeout' listener, Node destroys a socket
  // that stays silent this long in both directions.
  server.timeout = options.config.httpIdleTimeoutMs;
  // Node also ends any request after 300 s, which would cut an 8 MiB tus PATCH on a link slower
  // than ~28 KB/s and retry it for ever; the idle limit above bounds uploads instead. Request
  // headers must still arrive within Node's 60 s.
  server.requestTimeout = 0;

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.config.port, options.config.host, () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const address = `http://${options.config.host}:${port}`;
  worker.start();
  const callbacks = startCallbackDelivery(context);

  return {
    context,
    server,
    address,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await uploads.close();
      // Running jobs are aborted and re-queued before the database closes under them.
      await worker.stop();
      await callbacks.stop();
      db.close();
    },
  };
}
