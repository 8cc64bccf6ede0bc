import type { Kysely, Selectable } from 'kysely';
import type { Schema } from './schema';

/** One tus upload bound to one video; its id is random, never the video id. */
export interface Upload {
  id: string;
  videoId: string;
  appId: string;
  /** The declared length in bytes; while the length is deferred (a recording), the most it may grow to, as held in the quota. */
  size: number;
  fileName: string;
  fileType: string;
  /** The uploader's fingerprint of the chosen file, to resume only the same file. */
  fingerprint: string;
  createdAt: number;
  /** When it last received bytes (a PATCH), else when it was created. */
  activeAt: number;
  /** When its bytes became the video's source file; null while unfinished. */
  finishedAt: number | null;
}

/** A new upload is active from its creation. */
export type NewUpload = Omit<Upload, 'finishedAt' | 'activeAt'>;

/** The app's uploads in flight, and the least recent activity among them. */
export interface InFlight {
  count: number;
  /** Undefined when there are none. */
  oldestActiveAt: number | undefined;
}

type UploadRow = Selectable<Schema['uploads']>;

function toUpload(row: UploadRow): Upload {
  return {
    id: row.id,
    videoId: row.video_id,
    appId: row.app_id,
    size: row.size,
    fileName: row.file_name,
    fileType: row.file_type,
    fingerprint: row.fingerprint,
    createdAt: row.created_at,
    activeAt: row.active_at,
    finishedAt: row.finished_at,
  };
}

/** The owner of the `uploads` table. */
export class UploadStore {
  constructor(private readonly db: Kysely<Schema>) {}

  async get(id: string): Promise<Upload | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUpload(row);
  }

  async forVideo(videoId: string): Promise<Upload | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('video_id', '=', videoId).executeTakeFirst();
    return row && toUpload(row);
  }

  async insert(upload: NewUpload): Promise<void> {
    await this.db
      .insertInto('uploads')
      .values({
        id: upload.id,
        video_id: upload.videoId,
        app_id: upload.appId,
        size: upload.size,
        file_name: upload.fileName,
        file_type: upload.fileType,
        fingerprint: upload.fingerprint,
        created_at: upload.createdAt,
        active_at: upload.createdAt,
        finished_at: null,
      })
      .execute();
  }

  /** Only an unfinished upload can go: a finished one is the video's source of record. */
  async removeUnfinished(id: string): Promise<void> {
    await this.db.deleteFrom('uploads').where('id', '=', id).where('finished_at', 'is', null).execute();
  }

  /**
   * Records that an unfinished upload receives bytes at `now`. False when there is no such upload
   * (removed as abandoned a moment ago, or finished): the caller must not write to it.
   */
  async touch(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('uploads')
      .set({ active_at: now })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** `size` is the final length, which a deferred upload learns only at its end. */
  async markFinished(id: string, size: number, now: number): Promise<void> {
    await this.db.updateTable('uploads').set({ finished_at: now, size }).where('id', '=', id).where('finished_at', 'is', null).execute();
  }

  /**
   * The app's uploads under way: unfinished, their video still waiting for its file, and active
   * since `since` (one idle longer is paused or given up). `exceptVideoId`'s is left out: a new
   * upload of that video replaces it.
   */
  async inFlight(appId: string, since: number, exceptVideoId: string): Promise<InFlight> {
    const row = await this.db
      .selectFrom('uploads')
      .innerJoin('videos', 'videos.id', 'uploads.video_id')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string | null>('uploads.active_at').as('oldest')])
      .where('uploads.app_id', '=', appId)
      .where('uploads.finished_at', 'is', null)
      .where('videos.status', '=', 8)
      .where('uploads.active_at', '>=', since)
      .where('uploads.video_id', '!=', exceptVideoId)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldestActiveAt: row.oldest === null ? undefined : Number(row.oldest) };
  }

  /**
   * Bytes the app's uploads hold or have reserved: every upload's declared length, finished (the
   * video's source) or not, but `exceptVideoId`'s unfinished one (a new upload of that video
   * replaces it).
   */
  async bytesOfApp(appId: string, exceptVideoId: string): Promise<number> {
    const row = await this.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
      .where('app_id', '=', appId)
      .where((eb) => eb.or([eb('finished_at', 'is not', null), eb('video_id', '!=', exceptVideoId)]))
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /** Unfinished uploads that received nothing since `before`: given up by now. */
  async idleSince(before: number): Promise<Upload[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('finished_at', 'is', null)
      .where('active_at', '<', before)
      .orderBy('active_at')
      .execute();
    return rows.map(toUpload);
  }

  /**
   * Removes an unfinished upload only if it is still idle since `before`, in one statement, so an
   * upload resumed meanwhile ({@link touch}) is kept. True when it was removed.
   */
  async removeIdle(id: string, before: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('uploads')
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('active_at', '<', before)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Uploads whose video still waits for its file: the candidates for the start-up re-check. */
  async unfinishedOfWaitingVideos(): Promise<Upload[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .innerJoin('videos', 'videos.id', 'uploads.video_id')
      .selectAll('uploads')
      .where('uploads.finished_at', 'is', null)
      .where('videos.status', '=', 8)
      .orderBy('uploads.created_at')
      .execute();
    return rows.map(toUpload);
  }
}
