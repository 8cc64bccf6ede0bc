import type { VideoRow } from '../storage/videos';
import { formatCreateDate } from './createDate';
import { posterUrl } from './mediaUrls';

/** The spec's nine-field video record: exactly these keys in list replies. */
export interface VideoRecord {
  Id: string;
  VideoTitle: string;
  Description: string;
  Tags: string;
  Actors: string;
  Status: number;
  CreateDate: string;
  CreateUser: string;
  PicSavePath: string;
}

/** The single-video reply adds `Duration`, in seconds. */
export interface VideoDetail extends VideoRecord {
  Duration: number;
}

export function videoRecord(video: VideoRow, publicUrl: string, timeZone: string): VideoRecord {
  return {
    Id: video.id,
    VideoTitle: video.title,
    Description: video.description,
    Tags: video.tags,
    Actors: video.actors,
    Status: video.status,
    CreateDate: formatCreateDate(video.created_at, timeZone),
    CreateUser: video.create_user,
    PicSavePath: posterUrl(publicUrl, video),
  };
}

export function videoDetail(video: VideoRow, publicUrl: string, timeZone: string): VideoDetail {
  return { ...videoRecord(video, publicUrl, timeZone), Duration: video.duration };
}
