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

/** The owner of the `jobs` table. */
export class JobStore {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly dialect: Dialect,
  ) {}

  /** A video has at most one active job of a kind (a partial unique index): a second is a no-op. */
  async enqueue(videoId: string, kind: JobKind, now: number): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({ video_id: videoId, kind, created_at: now, updated_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /**
   * Takes the oldest queued job and marks it running, held until `leaseUntil`, or returns
   * undefined when none waits. One statement, so two workers (in two processes, or two instances
   * on one PostgreSQL) cannot claim the same job; on PostgreSQL a row another claim holds is
   * skipped, not waited for.
   */
  async claim(now: number, leaseUntil: number): Promise<Job | undefined> {
    const row = await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), lease_until: leaseUntil, updated_at: now }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'queued')
          .orderBy('id')
          .limit(1)
          .$if(this.dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
      )
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
    const rows = await this.db.selectFrom('jobs').selectAll().where('state', '=', 'running').where('lease_until', '<', before).orderBy('id').execute();
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
    const figures: QueueFigures = { queued: { download: 0, transcode: 0 }, running: { download: 0, transcode: 0 }, oldestQueuedAt: undefined };
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
