import type { MediaSever, VideoPlayFile } from '../../shared/apiReplies';
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

/** PlayURL is the best rendition, MobilePlayURL the lightest, DownloadURL the original file. */
export function mediaServer(publicUrl: string, video: Video, files: readonly VideoPlayFile[]): MediaSever {
  const playable = video.status === VideoStatus.Normal && files.length > 0;
  return {
    PlayURL: playable ? files[0]!.VideoURL : '',
    MobilePlayURL: playable ? files[files.length - 1]!.VideoURL : '',
    DownloadURL: playable && video.sourceFile ? mediaUrl(publicUrl, video.id, video.sourceFile) : '',
  };
}
