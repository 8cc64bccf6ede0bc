import type { Db } from '../storage/db';
import type { JobKind } from './pipeline';

export interface JobRow {
  id: number;
  video_id: string;
  kind: JobKind;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  last_error: string;
  created_at: number;
  updated_at: number;
}

/** All SQL on the jobs table. */
export class JobStore {
  private readonly claimStmt;
  private readonly finishStmt;
  private readonly requeueStmt;
  private readonly runningStmt;

  constructor(db: Db) {
    // One statement, so two workers (even in two processes on one DATA_DIR) cannot claim the same job.
    this.claimStmt = db.prepare<[number], JobRow>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = ?
       WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1) AND state = 'queued'
       RETURNING *`,
    );
    this.finishStmt = db.prepare<[string, string, number, number]>(
      `UPDATE jobs SET state = ?, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'`,
    );
    this.requeueStmt = db.prepare<[number, number]>(
      `UPDATE jobs SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running'`,
    );
    this.runningStmt = db.prepare<[], JobRow>(`SELECT * FROM jobs WHERE state = 'running' ORDER BY id`);
  }

  /** Takes the oldest queued job and marks it running, or returns undefined when none waits. */
  claim(now: number): JobRow | undefined {
    return this.claimStmt.get(now);
  }

  finish(id: number, state: 'done' | 'failed', error: string, now: number): void {
    this.finishStmt.run(state, error, now, id);
  }

  requeue(id: number, now: number): void {
    this.requeueStmt.run(now, id);
  }

  running(): JobRow[] {
    return this.runningStmt.all();
  }
}
