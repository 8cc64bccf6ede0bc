import type { Kysely } from 'kysely';
import type { Schema } from './schema';

/** One rendition of a video, under `DATA_DIR/media/<videoId>/`. */
export interface PlayFile {
  file: string;
  /** Kilobits per second. */
  bitrate: number;
  label: string;
  /** The short side in pixels (what the `p` of a label counts). */
  height: number;
  /**
   * A fragmented MP4 with a global index, which HLS addresses by byte ranges (media/playlists.ts):
   * the rungs transcoded since HLS; not the remux, the original, or rungs made before.
   */
  segmented: boolean;
}

type PlayFileRow = Omit<PlayFile, 'segmented'> & { segmented: number };

const toRow = (videoId: string, play: PlayFile) => ({
  video_id: videoId,
  file: play.file,
  bitrate: play.bitrate,
  label: play.label,
  height: play.height,
  segmented: play.segmented ? 1 : 0,
});

/** A play file no longer listed, still served until `removeAt` (ms since 1970). */
export interface RetiredPlayFile {
  videoId: string;
  file: string;
  removeAt: number;
}

/** The owner of the `play_files` and `retired_play_files` tables. */
export class PlayFileStore {
  constructor(private readonly db: Kysely<Schema>) {}

  /** Highest bitrate first. */
  async forVideo(videoId: string): Promise<PlayFile[]> {
    const rows: PlayFileRow[] = await this.db
      .selectFrom('play_files')
      .select(['file', 'bitrate', 'label', 'height', 'segmented'])
      .where('video_id', '=', videoId)
      .orderBy('bitrate', 'desc')
      .execute();
    return rows.map((row) => ({ ...row, segmented: row.segmented === 1 }));
  }

  /**
   * Adds play files and retires those named in `retire` (the remux better rungs replace) until
   * `retire.removeAt`: unlisted, but {@link retiredUntil} still knows them; run inside the step's
   * transaction. Adding a file already listed changes nothing of it.
   */
  async add(videoId: string, files: readonly PlayFile[], retire?: { files: readonly string[]; removeAt: number }): Promise<void> {
    const retired = retire?.files ?? [];
    const drop = [...retired, ...files.map((file) => file.file)];
    await this.db.deleteFrom('play_files').where('video_id', '=', videoId).where('file', 'in', drop).execute();
    if (retired.length > 0) {
      await this.db
        .insertInto('retired_play_files')
        .values(retired.map((file) => ({ video_id: videoId, file, remove_at: retire!.removeAt })))
        .onConflict((oc) => oc.columns(['video_id', 'file']).doUpdateSet({ remove_at: retire!.removeAt }))
        .execute();
    }
    if (files.length === 0) return;
    await this.db
      .insertInto('play_files')
      .values(files.map((file) => toRow(videoId, file)))
      .execute();
  }

  /** Until when a play file the video no longer lists is still served; undefined when it is not retired. */
  async retiredUntil(videoId: string, file: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('retired_play_files')
      .select('remove_at')
      .where('video_id', '=', videoId)
      .where('file', '=', file)
      .executeTakeFirst();
    return row && Number(row.remove_at);
  }

  /** Retired files whose time is up (at `now`), oldest first, at most `limit`. */
  async dueRetired(now: number, limit: number): Promise<RetiredPlayFile[]> {
    const rows = await this.db
      .selectFrom('retired_play_files')
      .select(['video_id', 'file', 'remove_at'])
      .where('remove_at', '<=', now)
      .orderBy('remove_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ videoId: row.video_id, file: row.file, removeAt: Number(row.remove_at) }));
  }

  /** Forgets a retired file once it is removed (only while still due: a newer retirement of the same name stays). */
  async forgetRetired(retired: RetiredPlayFile): Promise<void> {
    await this.db
      .deleteFrom('retired_play_files')
      .where('video_id', '=', retired.videoId)
      .where('file', '=', retired.file)
      .where('remove_at', '=', retired.removeAt)
      .execute();
  }

  /** Replaces the video's renditions; run inside the step's transaction. */
  async replace(videoId: string, files: readonly PlayFile[]): Promise<void> {
    await this.db.deleteFrom('play_files').where('video_id', '=', videoId).execute();
    if (files.length === 0) return;
    await this.db
      .insertInto('play_files')
      .values(files.map((play) => toRow(videoId, play)))
      .execute();
  }
}
