import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from './db';
import type { Schema } from './schema';
import { VideoStatus, type SourceFileGetType } from '../../shared/videoStatus';
import { isVideoTransition } from '../../shared/videoTransitions';

/**
 * A status change the transition table (shared/videoTransitions.ts) does not have: a step of the
 * service asked for it, which is a bug in that step. Nothing is written.
 */
export class VideoTransitionError extends Error {
  override readonly name = 'VideoTransitionError';
  readonly code = 'ILLEGAL_VIDEO_TRANSITION';

  constructor(
    readonly videoId: string,
    readonly from: VideoStatus | null,
    readonly to: VideoStatus,
  ) {
    super(`video "${videoId}": ${from === null ? 'registering in' : `${from} →`} ${to} is not a transition of the table`);
  }
}

/** A registered video as the rest of the service sees it. */
export interface Video {
  id: string;
  appId: string;
  title: string;
  description: string;
  tags: string;
  actors: string;
  createUser: string;
  sourceGetType: SourceFileGetType;
  /** The source URL of a type-2 video; '' for type 1. */
  sourcePath: string;
  status: VideoStatus;
  /** Why processing failed (status 4 or 7); '' otherwise. */
  statusReason: string;
  needHandleSpecial: boolean;
  /** Seconds. */
  duration: number;
  /** Plain file names under `DATA_DIR/media/<id>/`; '' until stored. */
  sourceFile: string;
  posterFile: string;
  createdAt: number;
  updatedAt: number;
}

export type NewVideo = Pick<
  Video,
  'id' | 'appId' | 'title' | 'description' | 'tags' | 'actors' | 'createUser' | 'sourceGetType' | 'sourcePath' | 'status' | 'createdAt'
>;

export interface VideoPage {
  total: number;
  videos: Video[];
}

type VideoRow = Selectable<Schema['videos']>;

function toVideo(row: VideoRow): Video {
  return {
    id: row.id,
    appId: row.app_id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    actors: row.actors,
    createUser: row.create_user,
    sourceGetType: row.source_get_type,
    sourcePath: row.source_path,
    status: row.status as VideoStatus,
    statusReason: row.status_reason,
    needHandleSpecial: row.need_handle_special === 1,
    duration: row.duration,
    sourceFile: row.source_file,
    posterFile: row.poster_file,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The owner of the `videos` table (and `video_counts`, each list's length, kept beside it). */
export class VideoStore {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly dialect: Dialect,
  ) {}

  /** The video and its list's count land together. Its status must be one a registration starts in. */
  async insert(video: NewVideo): Promise<void> {
    if (!isVideoTransition(null, video.status)) throw new VideoTransitionError(video.id, null, video.status);
    if (!this.db.isTransaction) return this.db.transaction().execute((tx) => new VideoStore(tx, this.dialect).insert(video));
    await this.db
      .insertInto('videos')
      .values({
        id: video.id,
        app_id: video.appId,
        title: video.title,
        description: video.description,
        tags: video.tags,
        actors: video.actors,
        create_user: video.createUser,
        source_get_type: video.sourceGetType,
        source_path: video.sourcePath,
        status: video.status,
        created_at: video.createdAt,
        updated_at: video.createdAt,
      })
      .execute();
    await this.db
      .insertInto('video_counts')
      .values({ app_id: video.appId, create_user: video.createUser, n: 1 })
      .onConflict((oc) => oc.columns(['app_id', 'create_user']).doUpdateSet({ n: sql`video_counts.n + 1` }))
      .execute();
  }

  async get(id: string): Promise<Video | undefined> {
    const row = await this.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toVideo(row);
  }

  /**
   * One page of a user's videos in one app, newest first, registration order among equal times;
   * `pageIndex` is 1-based. Total and the page are read in one transaction, so they agree.
   * OFFSET skips entries of the covering index only (the inner query reads no table row), only the
   * page's rows are then read, and the list is walked from its nearer end.
   */
  async listByUser(appId: string, createUser: string, pageIndex: number, pageSize: number): Promise<VideoPage> {
    if (!this.db.isTransaction) {
      return this.db.transaction().execute((tx) => new VideoStore(tx, this.dialect).listByUser(appId, createUser, pageIndex, pageSize));
    }
    const count = await this.db
      .selectFrom('video_counts')
      .select('n')
      .where('app_id', '=', appId)
      .where('create_user', '=', createUser)
      .executeTakeFirst();
    const total = count?.n ?? 0;
    const skipped = (pageIndex - 1) * pageSize;
    if (skipped >= total) return { total, videos: [] };
    const size = Math.min(pageSize, total - skipped);
    const after = total - skipped - size;
    const order = skipped <= after ? 'desc' : 'asc';
    // SQLite's rowid is the order of registration; PostgreSQL has a sequence for it.
    const tieBreaker = sql.ref(this.dialect === 'sqlite' ? 'rowid' : 'seq');
    const page = this.db
      .selectFrom('videos')
      .select(tieBreaker.as('k'))
      .where('app_id', '=', appId)
      .where('create_user', '=', createUser)
      .orderBy('created_at', order)
      .orderBy(tieBreaker, order)
      .limit(size)
      .offset(order === 'desc' ? skipped : after);
    const rows = await this.db
      .selectFrom('videos')
      .selectAll()
      .where(tieBreaker, 'in', page)
      .orderBy('created_at', 'desc')
      .orderBy(tieBreaker, 'desc')
      .execute();
    return { total, videos: rows.map(toVideo) };
  }

  /**
   * Moves a video from one of `from` to `to`; returns false when it was in another state,
   * so concurrent steps cannot both win a transition. Every `from` → `to` must be in the
   * transition table, or it throws {@link VideoTransitionError} and writes nothing.
   */
  async transition(id: string, from: readonly VideoStatus[], to: VideoStatus, reason: string, now: number): Promise<boolean> {
    const illegal = from.find((status) => !isVideoTransition(status, to));
    if (illegal !== undefined) throw new VideoTransitionError(id, illegal, to);
    const result = await this.db
      .updateTable('videos')
      .set({ status: to, status_reason: reason, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** The source file is in place under the video's media folder; `downloadedBytes` is its size when the service downloaded it. */
  async recordSource(id: string, sourceFile: string, needHandleSpecial: boolean, now: number, downloadedBytes = 0): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ source_file: sourceFile, need_handle_special: needHandleSpecial ? 1 : 0, downloaded_bytes: downloadedBytes, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** The upload page's NeedHandleSpecial, kept until the upload is stored. */
  async setNeedHandleSpecial(id: string, needHandleSpecial: boolean): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ need_handle_special: needHandleSpecial ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  /** `renditionBytes`: what the play files and pictures take, counted against the app's storage quota. */
  async recordTranscode(id: string, duration: number, posterFile: string, renditionBytes: number, now: number): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ duration, poster_file: posterFile, rendition_bytes: renditionBytes, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** A play file added (positive) or removed (negative) after status 1, counted like those of {@link recordTranscode}. */
  async addRenditionBytes(id: string, delta: number, now: number): Promise<void> {
    await this.db
      .updateTable('videos')
      .set((eb) => ({ rendition_bytes: eb('rendition_bytes', '+', delta), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }

  /** Bytes of every play file and picture of the app's videos, and of the sources the service downloaded for them. */
  async storedBytesOfApp(appId: string): Promise<number> {
    const row = await this.db
      .selectFrom('videos')
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number | string>(eb('rendition_bytes', '+', eb.ref('downloaded_bytes'))), eb.lit(0)).as('bytes'),
      )
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }
}
