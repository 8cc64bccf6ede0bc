import type { Kysely } from 'kysely';
import type { Schema } from './schema';

/** A status callback still to be delivered. */
export interface PendingCallback {
  id: number;
  videoId: string;
  appId: string;
  videoStatus: number;
  /** Tries so far. */
  attempts: number;
}

/**
 * The owner of the `callbacks` table: status callbacks, delivered at least once with retries
 * kept here. A row is claimed before its request is sent, by moving `next_attempt_at` past the request's time limit: the claim also counts the attempt, so if the
 * process dies mid-request the row simply falls due again (at least once, never lost).
 */
export class CallbackStore {
  constructor(private readonly db: Kysely<Schema>) {}

  /** Queues a callback, due at once. */
  async enqueue(videoId: string, appId: string, videoStatus: number, now: number): Promise<void> {
    await this.db
      .insertInto('callbacks')
      .values({ video_id: videoId, app_id: appId, video_status: videoStatus, next_attempt_at: now, created_at: now, updated_at: now })
      .execute();
  }

  due(now: number, limit: number): Promise<PendingCallback[]> {
    return this.db
      .selectFrom('callbacks')
      .select(['id', 'video_id as videoId', 'app_id as appId', 'video_status as videoStatus', 'attempts'])
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** When the earliest pending row falls due (claimed rows included, at their claim's end). */
  async nextAttemptAt(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('callbacks')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return row?.at ?? undefined;
  }

  /**
   * False when the row is no longer due: another worker (or instance) holds it, or it was settled.
   * One conditional update, so of two claims at once exactly one changes the row.
   */
  async claim(id: number, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('callbacks')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: until, updated_at: now }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async delivered(id: number, now: number): Promise<void> {
    await this.db.updateTable('callbacks').set({ state: 'delivered', last_error: '', updated_at: now }).where('id', '=', id).execute();
  }

  async retryAt(id: number, at: number, error: string, now: number): Promise<void> {
    await this.db.updateTable('callbacks').set({ next_attempt_at: at, last_error: error, updated_at: now }).where('id', '=', id).execute();
  }

  async giveUp(id: number, error: string, now: number): Promise<void> {
    await this.db
      .updateTable('callbacks')
      .set({ state: 'gave_up', last_error: error, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  /** Undoes a claim whose request the service itself cut short (shutdown): that try does not count. */
  async release(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('callbacks')
      .set((eb) => ({ attempts: eb('attempts', '-', 1), next_attempt_at: now, updated_at: now }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }
}
