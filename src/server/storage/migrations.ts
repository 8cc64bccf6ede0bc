import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './db';

/**
 * Schema versions for both databases, one definition each, applied in order by Kysely's Migrator
 * (which takes a lock first on PostgreSQL, so instances starting together apply each once).
 * Append a new entry to change the schema; never edit one that has shipped.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  const pg = dialect === 'postgres';
  // Milliseconds since 1970 and byte counts outgrow PostgreSQL's 32-bit integer.
  const big = pg ? 'bigint' : 'integer';
  const real = pg ? 'double precision' : 'real';
  const serial = (table: 'jobs' | 'callbacks') => (db: Kysely<unknown>) =>
    db.schema
      .createTable(table)
      .addColumn('id', big, (c) => (pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()));

  return {
    '0001_initial': {
      async up(db) {
        await db.schema
          .createTable('videos')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('actors', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('create_user', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('source_get_type', 'integer', (c) => c.notNull().check(sql`source_get_type IN (1, 2)`))
          .addColumn('source_path', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('status', 'integer', (c) => c.notNull().check(sql`status BETWEEN 0 AND 8`))
          .addColumn('status_reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('need_handle_special', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('duration', real, (c) => c.notNull().defaultTo(0))
          .addColumn('source_file', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('poster_file', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('videos_by_user').on('videos').columns(['app_id', 'create_user', 'created_at desc']).execute();
        // One tus upload per video at most; the upload id is random, never the video id.
        await db.schema
          .createTable('uploads')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('video_id', 'text', (c) => c.notNull().unique().references('videos.id'))
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('file_type', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('fingerprint', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('finished_at', big)
          .execute();
        await db.schema
          .createTable('play_files')
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id'))
          .addColumn('file', 'text', (c) => c.notNull())
          .addColumn('bitrate', 'integer', (c) => c.notNull())
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('play_files_pk', ['video_id', 'file'])
          .execute();
        // Processing jobs survive restarts; a running job left by a crash is re-queued at start-up.
        await serial('jobs')(db)
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) =>
            c
              .notNull()
              .defaultTo('queued')
              .check(sql`state IN ('queued', 'running', 'done', 'failed')`),
          )
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('jobs_queued').on('jobs').columns(['state', 'id']).execute();
        await db.schema
          .createIndex('jobs_one_active')
          .unique()
          .on('jobs')
          .columns(['video_id', 'kind'])
          .where(sql.ref('state'), 'in', ['queued', 'running'])
          .execute();
        // Status callbacks, delivered at least once with retries kept here.
        await serial('callbacks')(db)
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id'))
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('video_status', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) =>
            c
              .notNull()
              .defaultTo('pending')
              .check(sql`state IN ('pending', 'delivered', 'gave_up')`),
          )
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', big, (c) => c.notNull())
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('callbacks_due').on('callbacks').columns(['state', 'next_attempt_at']).execute();
      },
    },
    '0002_paging': {
      async up(db) {
        // The list's order is created_at DESC, then registration. Every SQLite index ends in rowid,
        // ascending, so an ascending index walked backwards gives that order with no sort;
        // PostgreSQL has no rowid, so it gets a registration sequence and the index names it.
        await db.schema.dropIndex('videos_by_user').execute();
        if (pg) {
          await db.schema
            .alterTable('videos')
            .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity())
            .execute();
          await db.schema.createIndex('videos_by_user').on('videos').columns(['app_id', 'create_user', 'created_at', 'seq']).execute();
          // The page's rows are then fetched by their seq.
          await db.schema.createIndex('videos_by_seq').unique().on('videos').column('seq').execute();
        } else {
          await db.schema.createIndex('videos_by_user').on('videos').columns(['app_id', 'create_user', 'created_at']).execute();
        }
        // Each list's Total, kept by the video store in the insert's transaction, so a page does not count every match.
        await db.schema
          .createTable('video_counts')
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('create_user', 'text', (c) => c.notNull())
          .addColumn('n', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('video_counts_pk', ['app_id', 'create_user'])
          .execute();
        await sql`INSERT INTO video_counts (app_id, create_user, n) SELECT app_id, create_user, COUNT(*) FROM videos GROUP BY app_id, create_user`.execute(
          db,
        );
      },
    },
    '0003_settings': {
      async up(db) {
        // What instances on one database must share instead of keeping it in their DATA_DIR.
        await db.schema
          .createTable('settings')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
      },
    },
    '0004_job_leases': {
      async up(db) {
        // A running job is held by the instance that claimed it until its lease runs out; 0 is long past.
        await db.schema
          .alterTable('jobs')
          .addColumn('lease_until', big, (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0005_fair_jobs': {
      async up(db) {
        // Claims share each pool out among apps (docs/processing.md#fair-scheduling): a job carries
        // its video's app, and when it was last claimed, so that apps take turns.
        await db.schema
          .alterTable('jobs')
          .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema
          .alterTable('jobs')
          .addColumn('claimed_at', big, (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`UPDATE jobs SET app_id = COALESCE((SELECT app_id FROM videos WHERE videos.id = jobs.video_id), '')`.execute(db);
        // An app's running jobs of a kind, and its last claim of that kind, are each one index range.
        await db.schema.createIndex('jobs_by_app').on('jobs').columns(['kind', 'app_id', 'state']).execute();
        await db.schema.createIndex('jobs_app_turns').on('jobs').columns(['kind', 'app_id', 'claimed_at']).execute();
      },
    },
    '0006_quota_buckets': {
      async up(db) {
        // Per-app token buckets (requests, tus creations), shared by every instance on the database.
        await db.schema
          .createTable('quota_buckets')
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('bucket', 'text', (c) => c.notNull())
          .addColumn('tokens', real, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('quota_buckets_pk', ['app_id', 'bucket'])
          .execute();
        // What a video's transcode stored (play files and pictures), counted against the app's storage quota.
        await db.schema
          .alterTable('videos')
          .addColumn('rendition_bytes', big, (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0007_downloaded_bytes': {
      async up(db) {
        // A source the service downloaded (type 2), counted against the app's storage quota as an
        // upload's size is; 0 for sources downloaded before this version, whose size was not kept.
        await db.schema
          .alterTable('videos')
          .addColumn('downloaded_bytes', big, (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0008_segmented_rungs': {
      async up(db) {
        // Whether HLS can address the play file by byte ranges (a fragmented MP4 with a global
        // sidx, media/playlists.ts). 0 for rungs transcoded before HLS: faststart MP4s, which no
        // playlist can name, so their videos keep a plain MobilePlayURL.
        await db.schema
          .alterTable('play_files')
          .addColumn('segmented', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0009_retired_play_files': {
      async up(db) {
        // Play files the list no longer names (a remux its rungs replaced) and when each is
        // removed: served until then to a player that started on it, removed by any instance's
        // sweep once due, even after a restart.
        await db.schema
          .createTable('retired_play_files')
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id'))
          .addColumn('file', 'text', (c) => c.notNull())
          .addColumn('remove_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('retired_play_files_pk', ['video_id', 'file'])
          .execute();
        await db.schema.createIndex('retired_play_files_due').on('retired_play_files').column('remove_at').execute();
      },
    },
    '0010_upload_activity': {
      async up(db) {
        // When an upload last received bytes: it counts as in flight, and is kept, by that rather
        // than by its creation (quota/quotas.ts). An upload an upgrade finds was last active when created.
        await db.schema
          .alterTable('uploads')
          .addColumn('active_at', big, (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`UPDATE uploads SET active_at = created_at`.execute(db);
      },
    },
  };
}
