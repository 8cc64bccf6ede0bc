import type { ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceContext } from '../context';
import type { Logger } from '../log';
import { ProcessLedger } from '../processing/processLedger';
import type { PoolUse } from '../storage/db';
import type { JobKind, QueueFigures } from '../storage/jobs';

/** What the metrics read when scraped rather than count as things happen. */
export interface MetricSources {
  /** The queue, read from the database so that every instance on it reports the same figures. */
  queueFigures(): Promise<QueueFigures>;
  /** Media tools (ffmpeg, ffprobe) this service has running. */
  mediaToolsRunning(): number;
  /** PostgreSQL's connection pool of this instance; undefined on SQLite. */
  poolUse(): PoolUse | undefined;
  now(): number;
  log: Logger;
}

const JOB_KINDS: readonly JobKind[] = ['download', 'transcode'];

/** 1xx…5xx: a bounded label, where the status itself would split every route into dozens of series. */
function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * The service's Prometheus metrics (docs/operations.md lists them), in a registry of its own, so
 * several services in one process (the tests) never share or collide. Labels are bounded: route
 * templates, status classes, job kinds and outcomes, and AppIds (fixed by APPS_FILE). Never a
 * video id, a user name, a path or a URL.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'ovu_http_request_duration_seconds',
    help: 'HTTP requests, from arrival to the end of the reply, by route template and status class.',
    labelNames: ['route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  readonly uploadsCreated = new Counter({
    name: 'ovu_uploads_created_total',
    help: 'tus uploads created, per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly uploadsCompleted = new Counter({
    name: 'ovu_uploads_completed_total',
    help: "Uploads stored whole and made the video's source, per app.",
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly uploadsFailed = new Counter({
    name: 'ovu_uploads_failed_total',
    help: 'tus requests the service could not serve (a 5xx reply: storage lost or full, database down, internal error), per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly uploadsInProgress = new Gauge({
    name: 'ovu_uploads_in_progress',
    help: 'tus PATCH requests this instance is receiving now, per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly uploadBytes = new Counter({
    name: 'ovu_upload_bytes_received_total',
    help: 'Bytes of tus PATCH bodies received, per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'ovu_job_duration_seconds',
    help: 'Processing jobs run by this instance, claim to end, by kind and outcome (done, failed, requeued, dropped, lost).',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600],
    registers: [this.registry],
  });

  readonly callbacksSent = new Counter({
    name: 'ovu_callbacks_sent_total',
    help: 'Status callbacks the app answered with 2xx, per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly callbacksFailed = new Counter({
    name: 'ovu_callbacks_failed_total',
    help: 'Status callback attempts that failed (no 2xx, timeout, connection error), per app; the last one of a given-up callback included.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  readonly callbacksGivenUp = new Counter({
    name: 'ovu_callbacks_given_up_total',
    help: 'Status callbacks given up (attempts used up, or the address policy refused the callbackUrl), per app.',
    labelNames: ['app_id'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    // The three queue gauges are read in one scrape, at once: one query serves them all.
    let reading: Promise<QueueFigures | undefined> | undefined;
    const figures = () =>
      (reading ??= sources
        .queueFigures()
        .catch((error: unknown) => {
          sources.log.warn('metrics: the job queue could not be read', { error: String((error as Error)?.message ?? error) });
          return undefined;
        })
        .finally(() => (reading = undefined)));
    const perKind = (gauge: Gauge<'kind'>, counts: Record<JobKind, number> | undefined) => {
      // An unreadable queue leaves no figure rather than a stale one.
      gauge.reset();
      if (counts) for (const kind of JOB_KINDS) gauge.set({ kind }, counts[kind]);
    };
    new Gauge({
      name: 'ovu_jobs_queued',
      help: 'Processing jobs waiting, by kind, across every instance on the database.',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      async collect() {
        perKind(this, (await figures())?.queued);
      },
    });
    new Gauge({
      name: 'ovu_jobs_running',
      help: 'Processing jobs running, by kind, across every instance on the database.',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      async collect() {
        perKind(this, (await figures())?.running);
      },
    });
    new Gauge({
      name: 'ovu_jobs_oldest_queued_age_seconds',
      help: 'How long the job that has waited longest has been queued; 0 when none waits.',
      registers: [this.registry],
      async collect() {
        const read = await figures();
        this.reset();
        if (read) this.set(read.oldestQueuedAt === undefined ? 0 : Math.max(0, sources.now() - read.oldestQueuedAt) / 1000);
      },
    });
    new Gauge({
      name: 'ovu_db_pool_connections',
      help: "This instance's PostgreSQL connections by state: open, idle, max, and queries waiting for one (none on SQLite).",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const use = sources.poolUse();
        if (use) for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, use[state]);
      },
    });
    new Gauge({
      name: 'ovu_ffmpeg_processes',
      help: 'ffmpeg and ffprobe processes this instance has running.',
      registers: [this.registry],
      collect() {
        this.set(sources.mediaToolsRunning());
      },
    });
  }

  /** Observes the request's duration when its reply ends; `route` is read then, once the router has matched. */
  timeRequest(res: ServerResponse, route: () => string): void {
    const started = performance.now();
    res.once('close', () =>
      this.requestDuration.observe({ route: route(), status_class: statusClass(res.statusCode) }, (performance.now() - started) / 1000),
    );
  }

  /** Counts a tus request's 5xx reply against its app when the reply ends. */
  countUploadFailure(res: ServerResponse, appId: string): void {
    res.once('close', () => {
      if (res.statusCode >= 500) this.uploadsFailed.inc({ app_id: appId });
    });
  }

  /** The text format Prometheus scrapes. */
  async send(res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.writeHead(200, {
      'Content-Type': this.registry.contentType,
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
    });
    res.end(text);
  }
}

/** The metrics of a service on these stores and this DATA_DIR. */
export function metricsFor(service: Pick<ServiceContext, 'stores' | 'config' | 'log' | 'now'>): ServiceMetrics {
  const ledger = new ProcessLedger(service.config.dataDir);
  return new ServiceMetrics({
    queueFigures: () => service.stores.jobs.queueFigures(),
    mediaToolsRunning: () => ledger.running(),
    poolUse: () => service.stores.poolUse(),
    now: () => service.now(),
    log: service.log,
  });
}
