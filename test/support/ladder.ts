import type { Kysely } from 'kysely';
import type { Schema } from '../../src/server/storage/schema';

/**
 * Resolves once the video has no queued or running job: after status 1 of a remuxed source, its
 * transcode job goes on adding the ladder's rungs, and the list is complete only when it ends.
 */
export async function waitForLadder(db: Kysely<Schema>, videoId: string, timeoutMs = 200_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const active = await db
      .selectFrom('jobs')
      .select('id')
      .where('video_id', '=', videoId)
      .where('state', 'in', ['queued', 'running'])
      .execute();
    if (active.length === 0) return;
    if (Date.now() > deadline) throw new Error(`video ${videoId} still has ${active.length} job(s) running or queued`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}
