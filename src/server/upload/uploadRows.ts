import type { Db } from '../storage/db';

/** One tus upload bound to one video (table `uploads`); its id is random, never the video id. */
export interface UploadRow {
  id: string;
  video_id: string;
  app_id: string;
  size: number;
  file_name: string;
  file_type: string;
  fingerprint: string;
  created_at: number;
  finished_at: number | null;
}

export type NewUpload = Omit<UploadRow, 'finished_at'>;

/** All SQL on the uploads table. */
export class UploadRows {
  private readonly byIdStmt;
  private readonly byVideoStmt;
  private readonly insertStmt;
  private readonly removeStmt;
  private readonly finishStmt;
  private readonly unfinishedStmt;

  constructor(db: Db) {
    this.byIdStmt = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?');
    this.byVideoStmt = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE video_id = ?');
    this.insertStmt = db.prepare<[NewUpload]>(
      `INSERT INTO uploads (id, video_id, app_id, size, file_name, file_type, fingerprint, created_at)
       VALUES (@id, @video_id, @app_id, @size, @file_name, @file_type, @fingerprint, @created_at)`,
    );
    this.removeStmt = db.prepare<[string]>('DELETE FROM uploads WHERE id = ? AND finished_at IS NULL');
    this.finishStmt = db.prepare<[number, string]>('UPDATE uploads SET finished_at = ? WHERE id = ? AND finished_at IS NULL');
    this.unfinishedStmt = db.prepare<[], UploadRow>(
      `SELECT uploads.* FROM uploads JOIN videos ON videos.id = uploads.video_id
       WHERE uploads.finished_at IS NULL AND videos.status = 8 ORDER BY uploads.created_at`,
    );
  }

  get(id: string): UploadRow | undefined {
    return this.byIdStmt.get(id);
  }

  forVideo(videoId: string): UploadRow | undefined {
    return this.byVideoStmt.get(videoId);
  }

  insert(row: NewUpload): void {
    this.insertStmt.run(row);
  }

  /** Only an unfinished upload can go: a finished one is the video's source of record. */
  removeUnfinished(id: string): void {
    this.removeStmt.run(id);
  }

  markFinished(id: string, at: number): void {
    this.finishStmt.run(at, id);
  }

  /** Uploads whose video still waits for its file: the candidates for the start-up re-check. */
  unfinishedOfWaitingVideos(): UploadRow[] {
    return this.unfinishedStmt.all();
  }
}
