import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

/**
 * Schema versions, applied in order and recorded in `PRAGMA user_version`.
 * Append a new entry to change the schema; never edit one that has shipped.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE videos (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '',
    actors TEXT NOT NULL DEFAULT '',
    create_user TEXT NOT NULL DEFAULT '',
    source_get_type INTEGER NOT NULL CHECK (source_get_type IN (1, 2)),
    source_path TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 8),
    status_reason TEXT NOT NULL DEFAULT '',
    need_handle_special INTEGER NOT NULL DEFAULT 0,
    duration REAL NOT NULL DEFAULT 0,
    source_file TEXT NOT NULL DEFAULT '',
    poster_file TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX videos_by_user ON videos (app_id, create_user, created_at DESC);

  -- One tus upload per video at most; the upload id is random, never the video id.
  CREATE TABLE uploads (
    id TEXT PRIMARY KEY,
    video_id TEXT NOT NULL UNIQUE REFERENCES videos (id),
    app_id TEXT NOT NULL,
    size INTEGER NOT NULL,
    file_name TEXT NOT NULL DEFAULT '',
    file_type TEXT NOT NULL DEFAULT '',
    fingerprint TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    finished_at INTEGER
  );

  CREATE TABLE play_files (
    video_id TEXT NOT NULL REFERENCES videos (id),
    file TEXT NOT NULL,
    bitrate INTEGER NOT NULL,
    label TEXT NOT NULL,
    height INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (video_id, file)
  );

  -- Processing jobs (download, transcode) survive restarts; a running job left by a crash is re-queued at start-up.
  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    video_id TEXT NOT NULL REFERENCES videos (id),
    kind TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX jobs_queued ON jobs (state, id);
  CREATE UNIQUE INDEX jobs_one_active ON jobs (video_id, kind) WHERE state IN ('queued', 'running');

  -- Status callbacks, delivered at least once with retries kept here.
  CREATE TABLE callbacks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    video_id TEXT NOT NULL REFERENCES videos (id),
    app_id TEXT NOT NULL,
    video_status INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'gave_up')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX callbacks_due ON callbacks (state, next_attempt_at);
  `,
];

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this service (${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

/** Opens (creating when needed) `service.sqlite` in the data directory and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'service.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
