import { sql, type Kysely } from 'kysely';
import type { Dialect } from './db';
import type { Schema } from './schema';

/**
 * What a bucket limits: the app's API and SOAP requests, or its tus creations; or what the
 * browser of one video's page can trigger: its page loads, or its tus creations.
 */
export type BucketName = 'requests' | 'uploads' | `video-pages:${string}` | `video-uploads:${string}`;

/** The buckets of one video each: many more rows than apps, forgotten once idle ({@link QuotaBucketStore.forgetIdle}). */
const VIDEO_BUCKETS = 'video-%';

/** A token bucket as stored: its tokens when it was last touched (milliseconds since 1970). */
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/**
 * The owner of the `quota_buckets` table: one row per (app, bucket), shared by every instance on
 * the database, so a limit holds however many instances serve the app.
 */
export class QuotaBucketStore {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Run inside a transaction: another transaction holding the same app waits until this one
   * ends, so a count and the insert it allows (an upload under `uploadsInFlight`) are one step
   * across instances. A PostgreSQL advisory lock, its key prefixed so no other use of advisory
   * locks (tus uploads, the migrator) meets it; SQLite runs one transaction at a time already.
   */
  async holdApp(appId: string): Promise<void> {
    if (this.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`quota-app:${appId}`}, 0))`.execute(this.db);
  }

  /**
   * Removes the per-video buckets untouched since `before`. A bucket left alone refills, so once it
   * is full again a missing row (made fresh, full) is the same bucket; the caller picks `before`
   * long enough ago for that.
   */
  async forgetIdle(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('quota_buckets')
      .where(sql<boolean>`bucket LIKE ${VIDEO_BUCKETS}`)
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Reads the bucket (made `fresh` when missing) and writes what `step` makes of it, in one
   * transaction that holds the row: instances spending at once take turns, so two cannot both
   * spend the last token. On PostgreSQL the upsert locks the row until commit; SQLite has one
   * writer at a time. Not for use inside another transaction (it opens its own).
   */
  async settle<T>(
    appId: string,
    bucket: BucketName,
    fresh: BucketState,
    step: (state: BucketState) => { next: BucketState; outcome: T },
  ): Promise<T> {
    return this.db.transaction().execute(async (tx) => {
      // The no-op update on conflict is what returns (and, on PostgreSQL, locks) an existing row.
      const row = await tx
        .insertInto('quota_buckets')
        .values({ app_id: appId, bucket, tokens: fresh.tokens, updated_at: fresh.updatedAt })
        .onConflict((oc) => oc.columns(['app_id', 'bucket']).doUpdateSet((eb) => ({ tokens: eb.ref('quota_buckets.tokens') })))
        .returning(['tokens', 'updated_at'])
        .executeTakeFirstOrThrow();
      const { next, outcome } = step({ tokens: Number(row.tokens), updatedAt: Number(row.updated_at) });
      await tx
        .updateTable('quota_buckets')
        .set({ tokens: next.tokens, updated_at: next.updatedAt })
        .where('app_id', '=', appId)
        .where('bucket', '=', bucket)
        .execute();
      return outcome;
    });
  }
}
