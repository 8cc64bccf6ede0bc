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

/** The owner of the `play_files` table. */
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
   * Adds play files and drops those named in `unlist` (the remux better rungs replace); run inside
   * the step's transaction. Adding a file already listed changes nothing of it.
   */
  async add(videoId: string, files: readonly PlayFile[], unlist: readonly string[] = []): Promise<void> {
    const drop = [...unlist, ...files.map((file) => file.file)];
    await this.db.deleteFrom('play_files').where('video_id', '=', videoId).where('file', 'in', drop).execute();
    if (files.length === 0) return;
    await this.db
      .insertInto('play_files')
      .values(files.map((file) => toRow(videoId, file)))
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
