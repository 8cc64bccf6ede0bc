import type { MediaSever, VideoPlayFile } from '../../shared/apiReplies';
import { MASTER_PLAYLIST } from '../media/playlists';
import type { PlayFile } from '../storage/playFiles';
import type { Video } from '../storage/videos';
import { VideoStatus } from '../../shared/videoStatus';

/** Media files are served under `{PUBLIC_URL}/Media/{videoId}/{file}`. */
function mediaUrl(publicUrl: string, videoId: string, file: string): string {
  return `${publicUrl}/Media/${encodeURIComponent(videoId)}/${encodeURIComponent(file)}`;
}

export function posterUrl(publicUrl: string, video: Video): string {
  return video.posterFile ? mediaUrl(publicUrl, video.id, video.posterFile) : '';
}

/** Play files, best first; `playFiles` arrive ordered by bitrate, highest first. */
export function playFileList(publicUrl: string, videoId: string, playFiles: readonly PlayFile[]): VideoPlayFile[] {
  return playFiles.map((file) => ({
    VideoURL: mediaUrl(publicUrl, videoId, file.file),
    Bitrate: file.bitrate,
    BitrateLabel: file.label,
  }));
}

/**
 * PlayURL is the best rendition, DownloadURL the original file. MobilePlayURL is the HLS master
 * playlist once a segmented rung is listed (the player picks the rung the network carries); before
 * that (a remux alone), for needHandleSepcial (the source alone) and for rungs transcoded before
 * HLS (faststart MP4s) it is the lightest listed file.
 */
export function mediaServer(publicUrl: string, video: Video, playFiles: readonly PlayFile[]): MediaSever {
  const playable = video.status === VideoStatus.Normal && playFiles.length > 0;
  const adaptive = !video.needHandleSpecial && playFiles.some((play) => play.segmented);
  const url = (file: string) => (playable ? mediaUrl(publicUrl, video.id, file) : '');
  return {
    PlayURL: url(playFiles[0]?.file ?? ''),
    MobilePlayURL: url(adaptive ? MASTER_PLAYLIST : (playFiles[playFiles.length - 1]?.file ?? '')),
    DownloadURL: playable && video.sourceFile ? mediaUrl(publicUrl, video.id, video.sourceFile) : '',
  };
}
