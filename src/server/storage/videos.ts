import type { Db } from './db';

/** The spec's status values (States and transitions). */
export const VideoStatus = {
  WaitingForDeletion: 0,
  Normal: 1,
  WaitingForDownload: 2,
  Downloading: 3,
  DownloadFailed: 4,
  WaitingForTranscoding: 5,
  Transcoding: 6,
  TranscodingFailed: 7,
  NotUploaded: 8,
} as const;
export type VideoStatus = (typeof VideoStatus)[keyof typeof VideoStatus];

export interface VideoRow {
  id: string;
  app_id: string;
  title: string;
  description: string;
  tags: string;
  actors: string;
  create_user: string;
  source_get_type: 1 | 2;
  source_path: string;
  status: VideoStatus;
  status_reason: string;
  need_handle_special: 0 | 1;
  duration: number;
  source_file: string;
  poster_file: string;
  created_at: number;
  updated_at: number;
}

export interface NewVideo {
  id: string;
  appId: string;
  title: string;
  description: string;
  tags: string;
  actors: string;
  createUser: string;
  sourceGetType: 1 | 2;
  sourcePath: string;
  status: VideoStatus;
  createdAt: number;
}

export interface PlayFileRow {
  video_id: string;
  file: string;
  bitrate: number;
  label: string;
  height: number;
}

export interface VideoPage {
  total: number;
  rows: VideoRow[];
}

/** All SQL on the videos table lives here, so the statements are prepared once. */
export class VideoStore {
  private readonly db: Db;
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly countStmt;
  private readonly pageStmt;
  private readonly playFilesStmt;

  constructor(db: Db) {
    this.db = db;
    this.insertStmt = db.prepare(
      `INSERT INTO videos (id, app_id, title, description, tags, actors, create_user, source_get_type, source_path, status, created_at, updated_at)
       VALUES (@id, @appId, @title, @description, @tags, @actors, @createUser, @sourceGetType, @sourcePath, @status, @createdAt, @createdAt)`,
    );
    this.byIdStmt = db.prepare<[string], VideoRow>('SELECT * FROM videos WHERE id = ?');
    this.countStmt = db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM videos WHERE app_id = ? AND create_user = ?',
    );
    this.pageStmt = db.prepare<[string, string, number, number], VideoRow>(
      `SELECT * FROM videos WHERE app_id = ? AND create_user = ?
       ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    );
    this.playFilesStmt = db.prepare<[string], PlayFileRow>(
      'SELECT * FROM play_files WHERE video_id = ? ORDER BY bitrate DESC',
    );
  }

  insert(video: NewVideo): void {
    this.insertStmt.run(video);
  }

  get(id: string): VideoRow | undefined {
    return this.byIdStmt.get(id);
  }

  /** One page of a user's videos in one app, newest first; `pageIndex` is 1-based. */
  listByUser(appId: string, createUser: string, pageIndex: number, pageSize: number): VideoPage {
    return this.db.transaction(() => ({
      total: this.countStmt.get(appId, createUser)!.n,
      rows: this.pageStmt.all(appId, createUser, pageSize, (pageIndex - 1) * pageSize),
    }))();
  }

  playFiles(videoId: string): PlayFileRow[] {
    return this.playFilesStmt.all(videoId);
  }

  /**
   * Moves a video from one of `from` to `to`; returns false when it was in another state,
   * so concurrent steps cannot both win a transition.
   */
  transition(id: string, from: readonly VideoStatus[], to: VideoStatus, reason = ''): boolean {
    const placeholders = from.map(() => '?').join(', ');
    const result = this.db
      .prepare(`UPDATE videos SET status = ?, status_reason = ?, updated_at = ? WHERE id = ? AND status IN (${placeholders})`)
      .run(to, reason, Date.now(), id, ...from);
    return result.changes === 1;
  }
}
