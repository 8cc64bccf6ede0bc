import { join } from 'node:path';

/**
 * Every file of a video (its source, renditions and pictures) lives in `DATA_DIR/media/<videoId>/`
 * under a plain name; `videos.source_file`, `videos.poster_file` and `play_files.file` hold those names.
 */
export function mediaDir(dataDir: string, videoId: string): string {
  return join(dataDir, 'media', videoId);
}
