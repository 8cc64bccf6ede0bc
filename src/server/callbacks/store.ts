import type { Db } from '../storage/db';

export interface PendingCallback {
  id: number;
  video_id: string;
  app_id: string;
  video_status: number;
  attempts: number;
}

/**
 * The SQL on the `callbacks` table. A row is claimed before its request is sent, by moving
 * `next_attempt_at` past the request's time limit: the claim also counts the attempt, so if the
 * process dies mid-request the row simply falls due again (at least once, never lost).
 */
export class CallbackStore {
  private readonly dueStmt;
  private readonly nextStmt;
  private readonly claimStmt;
  private readonly deliveredStmt;
  private readonly retryStmt;
  private readonly giveUpStmt;
  private readonly releaseStmt;

  constructor(db: Db) {
    this.dueStmt = db.prepare<[number, number], PendingCallback>(
      `SELECT id, video_id, app_id, video_status, attempts FROM callbacks
       WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    );
    this.nextStmt = db.prepare<[], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM callbacks WHERE state = 'pending'`);
    this.claimStmt = db.prepare<[number, number, number, number]>(
      `UPDATE callbacks SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND state = 'pending' AND next_attempt_at <= ?`,
    );
    this.deliveredStmt = db.prepare<[number, number]>(
      `UPDATE callbacks SET state = 'delivered', last_error = '', updated_at = ? WHERE id = ?`,
    );
    this.retryStmt = db.prepare<[number, string, number, number]>(
      `UPDATE callbacks SET next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
    );
    this.giveUpStmt = db.prepare<[string, number, number]>(
      `UPDATE callbacks SET state = 'gave_up', last_error = ?, updated_at = ? WHERE id = ? AND state = 'pending'`,
    );
    this.releaseStmt = db.prepare<[number, number, number]>(
      `UPDATE callbacks SET attempts = attempts - 1, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'pending'`,
    );
  }

  due(now: number, limit: number): PendingCallback[] {
    return this.dueStmt.all(now, limit);
  }

  /** When the earliest pending row falls due (claimed rows included, at their claim's end). */
  nextAttemptAt(): number | undefined {
    return this.nextStmt.get()?.at ?? undefined;
  }

  /** False when the row is no longer due: another worker holds it, or it was settled. */
  claim(id: number, now: number, until: number): boolean {
    return this.claimStmt.run(until, now, id, now).changes === 1;
  }

  delivered(id: number, now: number): void {
    this.deliveredStmt.run(now, id);
  }

  retryAt(id: number, at: number, error: string, now: number): void {
    this.retryStmt.run(at, error, now, id);
  }

  giveUp(id: number, error: string, now: number): void {
    this.giveUpStmt.run(error, now, id);
  }

  /** Undoes a claim whose request the service itself cut short (shutdown): that try does not count. */
  release(id: number, now: number): void {
    this.releaseStmt.run(now, now, id);
  }
}
