import type { PlayFileRow, VideoRow } from '../storage/videos';

/** Media files are served under `{PUBLIC_URL}/Media/{videoId}/{file}`. */
export function mediaUrl(publicUrl: string, videoId: string, file: string): string {
  return `${publicUrl}/Media/${encodeURIComponent(videoId)}/${encodeURIComponent(file)}`;
}

export function posterUrl(publicUrl: string, video: VideoRow): string {
  return video.poster_file ? mediaUrl(publicUrl, video.id, video.poster_file) : '';
}

export interface MediaSever {
  PlayURL: string;
  MobilePlayURL: string;
  DownloadURL: string;
}

export interface VideoPlayFile {
  VideoURL: string;
  /** Kilobits per second, a JSON number as in the spec's sample replies. */
  Bitrate: number;
  BitrateLabel: string;
}

/** Play files, best first; `playFiles` arrive ordered by bitrate, highest first. */
export function playFileList(publicUrl: string, playFiles: readonly PlayFileRow[]): VideoPlayFile[] {
  return playFiles.map((file) => ({
    VideoURL: mediaUrl(publicUrl, file.video_id, file.file),
    Bitrate: file.bitrate,
    BitrateLabel: file.label,
  }));
}

/** PlayURL is the best rendition, MobilePlayURL the lightest, DownloadURL the original file. */
export function mediaServer(publicUrl: string, video: VideoRow, files: readonly VideoPlayFile[]): MediaSever {
  const playable = video.status === 1 && files.length > 0;
  return {
    PlayURL: playable ? files[0]!.VideoURL : '',
    MobilePlayURL: playable ? files[files.length - 1]!.VideoURL : '',
    DownloadURL: playable && video.source_file ? mediaUrl(publicUrl, video.id, video.source_file) : '',
  };
}
