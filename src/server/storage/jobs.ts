import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from './db';
import type { Schema } from './schema';

export type JobKind = 'download' | 'transcode';

/**
 * A processing job. Jobs survive restarts; a running one is held by the instance that claimed it
 * until `leaseUntil`, which that instance keeps moving on while it works. One whose lease ran out
 * (its instance died) is put back in the queue by whichever instance notices first.
 */
export interface Job {
  id: number;
  videoId: string;
  /** The video's app: the pools are shared out among apps. */
  appId: string;
  kind: JobKind;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** Starts so far, the running one included; with `id`, it names one claim. */
  attempts: number;
  lastError: string;
  createdAt: number;
  updatedAt: number;
  /** Milliseconds since 1970; meaningful while running. */
  leaseUntil: number;
}

type JobRow = Selectable<Schema['jobs']>;

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    videoId: row.video_id,
    appId: row.app_id,
    kind: row.kind,
    state: row.state,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    leaseUntil: row.lease_until,
  };
}

/** How many jobs wait and run, of each kind, across every instance on the database. */
export interface QueueFigures {
  queued: Record<JobKind, number>;
  running: Record<JobKind, number>;
  /** `createdAt` of the job that has waited longest, or undefined when none waits. */
  oldestQueuedAt: number | undefined;
}

/**
 * Which writes on a running job count: the holder's own claim (`id` and `attempts`, unchanged by
 * anyone else until the job is queued again), and for a job taken from a dead holder, a lease
 * that has still run out when the write lands (`expiredBefore`), so a holder that renewed
 * meanwhile keeps its job.
 */
export interface JobFence {
  expiredBefore?: number;
}

/** Which queued jobs a claim may take. */
export interface ClaimScope {
  /** Only jobs of this kind (one pool's); any kind when absent. */
  kind?: JobKind;
  /** Apps whose jobs are passed over: those already holding their share of the claimer's pool. */
  exceptApps?: readonly string[];
}

/** The owner of the `jobs` table. */
export class JobStore {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly dialect: Dialect,
  ) {}

  /** A video has at most one active job of a kind (a partial unique index): a second is a no-op. */
  async enqueue(job: { videoId: string; appId: string; kind: JobKind }, now: number): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({ video_id: job.videoId, app_id: job.appId, kind: job.kind, created_at: now, updated_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /**
   * Takes a queued job in `scope` and marks it running, held until `leaseUntil`, or returns
   * undefined when none waits. Apps take turns: the job is the oldest of the app that has the
   * fewest jobs of its kind running (on every instance), and of apps running as many, the one
   * whose last claim of that kind is the oldest (or that was never claimed); so one app's long
   * queue waits behind every other app's next job. One statement, so two workers (in two
   * processes, or two instances on one PostgreSQL) cannot claim the same job; on PostgreSQL a
   * row another claim holds is skipped, not waited for (two claims at the same instant may then
   * both serve one app: the turns are fair between claims, not within one).
   */
  async claim(now: number, leaseUntil: number, scope: ClaimScope = {}): Promise<Job | undefined> {
    const exceptApps = scope.exceptApps ?? [];
    const next = this.db
      .selectFrom('jobs as queued')
      .select('queued.id')
      .where('queued.state', '=', 'queued')
      .$if(scope.kind !== undefined, (qb) => qb.where('queued.kind', '=', scope.kind!))
      .$if(exceptApps.length > 0, (qb) => qb.where('queued.app_id', 'not in', exceptApps))
      .orderBy((eb) =>
        eb
          .selectFrom('jobs as running')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('running.kind', '=', 'queued.kind')
          .whereRef('running.app_id', '=', 'queued.app_id')
          .where('running.state', '=', 'running'),
      )
      .orderBy((eb) =>
        eb
          .selectFrom('jobs as claimed')
          .select((inner) => inner.fn.max('claimed.claimed_at').as('last'))
          .whereRef('claimed.kind', '=', 'queued.kind')
          .whereRef('claimed.app_id', '=', 'queued.app_id'),
      )
      .orderBy('queued.id')
      .limit(1)
      .$if(this.dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
    const row = await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), lease_until: leaseUntil, claimed_at: now, updated_at: now }))
      .where('id', '=', next)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    return row && toJob(row);
  }

  /** Moves the claim's lease on; false when the job is no longer this claim's (it was taken back). */
  async renew(job: Job, leaseUntil: number, now: number): Promise<boolean> {
    const result = await this.held(job, {}).set({ lease_until: leaseUntil, updated_at: now }).executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** False when the claim no longer holds the job: nothing is written then. */
  async finish(job: Job, state: 'done' | 'failed', error: string, now: number, fence: JobFence = {}): Promise<boolean> {
    const result = await this.held(job, fence).set({ state, last_error: error, updated_at: now }).executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Back to the queue, its attempt still counted; false when the claim no longer holds the job. */
  async requeue(job: Job, now: number, fence: JobFence = {}): Promise<boolean> {
    const result = await this.held(job, fence).set({ state: 'queued', updated_at: now }).executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Running jobs whose lease ran out before `before`: their holder is gone. */
  async expired(before: number): Promise<Job[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'running')
      .where('lease_until', '<', before)
      .orderBy('id')
      .execute();
    return rows.map(toJob);
  }

  /** The newest jobs first, of one state or all (the operator's `jobs list`). */
  async list(filter: { state?: Job['state']; limit: number }): Promise<Job[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .$if(filter.state !== undefined, (qb) => qb.where('state', '=', filter.state!))
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .execute();
    return rows.map(toJob);
  }

  /** One video's jobs, oldest first. */
  async forVideo(videoId: string): Promise<Job[]> {
    const rows = await this.db.selectFrom('jobs').selectAll().where('video_id', '=', videoId).orderBy('id').execute();
    return rows.map(toJob);
  }

  /** One grouped read, for /metrics: the same figures from every instance. */
  async queueFigures(): Promise<QueueFigures> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', 'state'])
      .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('state', 'in', ['queued', 'running'])
      .groupBy(['kind', 'state'])
      .execute();
    const figures: QueueFigures = {
      queued: { download: 0, transcode: 0 },
      running: { download: 0, transcode: 0 },
      oldestQueuedAt: undefined,
    };
    for (const row of rows) {
      // PostgreSQL returns counts and bigints as strings.
      figures[row.state as 'queued' | 'running'][row.kind] = Number(row.count);
      if (row.state === 'queued') figures.oldestQueuedAt = Math.min(figures.oldestQueuedAt ?? Infinity, Number(row.oldest));
    }
    return figures;
  }

  private held(job: Job, fence: JobFence) {
    return this.db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('attempts', '=', job.attempts)
      .where('state', '=', 'running')
      .$if(fence.expiredBefore !== undefined, (qb) => qb.where('lease_until', '<', fence.expiredBefore!));
  }
}
