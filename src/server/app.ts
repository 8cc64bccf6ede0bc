import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppRegistry, type AppRecord } from './auth/apps';
import { settleDemoApp } from './auth/demoApp';
import { startCallbackDelivery } from './callbacks/delivery';
import { settlePublicUrl, type ServiceConfig } from './config';
import { serviceContext, type ServiceContext } from './context';
import { ServiceError, isServiceError } from './errors';
import { sendServiceError } from './http/reply';
import { requestIdOf, REQUEST_ID_HEADER } from './http/requestId';
import { logRequest } from './http/requestLog';
import { matchRoute, requestUrl, type Route } from './http/router';
import { createLogger, withLogFields, type Logger } from './log';
import { openMediaFiles, type MediaFiles } from './media/mediaFiles';
import { metricsFor } from './operator/metrics';
import { opsListenerRoutes, readinessProbe } from './operator/operatorRoutes';
import { startOpsListener, type OpsListener } from './operator/opsListener';
import { enqueueJob } from './processing/pipeline';
import { ProcessingWorker, recoverInterruptedJobs } from './processing/queue';
import { serviceOutages, type Outages } from './outages';
import { apiRoutes } from './routes';
import { ServiceSignals } from './signals';
import { openStores, type ServiceStores } from './storage/stores';
import { createUploadService } from './upload/uploadService';
import { SourceFileGetType } from '../shared/videoStatus';

export interface ServiceOptions {
  config: ServiceConfig;
  /** The registered apps (APPS_FILE); without them, the one demo app kept in the database. */
  apps?: AppRecord[];
  log?: Logger;
  now?: () => number;
  /** The demo app's address, linked from the landing page (`npm run demo`). */
  demoUrl?: string;
}

export interface RunningService {
  context: ServiceContext;
  server: Server;
  /** The bound address, e.g. http://127.0.0.1:8080 (differs from PUBLIC_URL behind a proxy). */
  address: string;
  /** Serves a new set of apps from the next request on (a re-read `APPS_FILE`). */
  replaceApps(apps: readonly AppRecord[]): void;
  /** The operator's listener (OPS_PORT), when set: /metrics and the detailed /readyz without a token. */
  opsAddress: string | undefined;
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? createLogger();
  // The socket is bound first so PUBLIC_URL can name its port (PORT=0) before any part of the
  // service reads the config, which is then fixed. Requests wait until the service is ready.
  let handle: RequestListener | undefined;
  const early: [IncomingMessage, ServerResponse][] = [];
  const server = createServer((req, res) => (handle ? handle(req, res) : early.push([req, res])));
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
  const config: ServiceConfig = Object.freeze({ ...options.config, publicUrl: settlePublicUrl(options.config.publicUrl, port) });

  let stores: ServiceStores | undefined;
  let files: MediaFiles | undefined;
  let ops: OpsListener | undefined;
  let outages: Outages | undefined;
  try {
    stores = await openStores(config);
    const now = options.now ?? Date.now;
    const apps = options.apps ?? [await settleDemoApp(config.dataDir, stores.settings, log, now())];
    files = await openMediaFiles(config);
    const registry = createAppRegistry(apps);
    const context = serviceContext({
      config,
      apps: registry,
      stores,
      files,
      log,
      outages: serviceOutages({ log, stores, files, dataDir: config.dataDir }),
      signals: new ServiceSignals(),
      metrics: metricsFor({ stores, config, log, now }),
      now,
    });
    outages = context.outages;
    await outages.fillReserve();
    const readiness = readinessProbe(context);
    // Bound before anything else starts, so a port taken fails the start with nothing to stop.
    if (config.ops.port !== undefined) ops = await startOpsListener(context, opsListenerRoutes(context, readiness));
    // Before any request or worker runs: jobs cut off by the last stop go back to the queue.
    await recoverInterruptedJobs(context);
    const worker = new ProcessingWorker(context);
    const uploads = await createUploadService(context);
    // An upload whose finish hook never ran (crash, kill) is finished before new requests are served.
    await uploads.recheck();
    const routes: Route[] = apiRoutes(context, {
      onRegistered: async (ctx, videoId, sourceGetType) => {
        if (sourceGetType === SourceFileGetType.Download) await enqueueJob(ctx, videoId, 'download');
      },
      uploads,
      operator: { demoUrl: options.demoUrl, readiness },
    });

    const serve = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
      const logEntry = logRequest(log, req, res, requestId);
      context.metrics.timeRequest(res, () => logEntry.route);
      const url = requestUrl(req.url);
      try {
        if (!url) throw new ServiceError('INVALID_PARAMETER', 'the request target is not a valid URL');
        const route = matchRoute(routes, req.method ?? 'GET', url.pathname);
        logEntry.route = route.path;
        await route.handler({ req, res, url, requestId });
      } catch (error) {
        // A lost database or bucket, or a full disk, is logged once per outage, not per request.
        const failure = context.outages.answer(error);
        const serviceError = failure ?? (isServiceError(error) ? error : new ServiceError('INTERNAL'));
        if (!failure && !isServiceError(error))
          log.error('unhandled error', { route: logEntry.route, error: String((error as Error)?.stack ?? error) });
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // Drain what the client is still sending so it reads the reply instead of a reset.
        req.resume();
        sendServiceError(res, serviceError);
      }
    };
    // Every reply carries the id, whoever writes its head (our replies, tus, static files): they
    // all merge the headers set here.
    handle = (req, res) => {
      const requestId = requestIdOf(req.headers);
      res.setHeader(REQUEST_ID_HEADER, requestId);
      // serve answers its own failures (its catch sends the error reply), so nothing awaits it.
      void withLogFields({ requestId }, () => serve(req, res, requestId));
    };
    for (const [req, res] of early.splice(0)) handle(req, res);
    worker.start();
    const callbacks = startCallbackDelivery(context);
    const opened = stores;
    const openedFiles = files;
    const openedOps = ops;
    const openedOutages = outages;

    return {
      context,
      server,
      address,
      replaceApps: (next) => registry.replace(next),
      opsAddress: ops?.address,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await openedOps?.close();
        await uploads.close();
        // Running jobs are aborted and re-queued before the database closes under them.
        await worker.stop();
        await callbacks.stop();
        openedOutages.close();
        await opened.close();
        openedFiles.close();
      },
    };
  } catch (error) {
    server.closeAllConnections();
    server.close();
    await ops?.close();
    outages?.close();
    await stores?.close();
    files?.close();
    throw error;
  }
}
