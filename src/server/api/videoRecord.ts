import type { VideoDetail, VideoRecord } from '../../shared/apiReplies';
import type { Video } from '../storage/videos';
import { formatCreateDate } from './createDate';
import { posterUrl } from './mediaUrls';

export function videoRecord(video: Video, publicUrl: string, timeZone: string): VideoRecord {
  return {
    Id: video.id,
    VideoTitle: video.title,
    Description: video.description,
    Tags: video.tags,
    Actors: video.actors,
    Status: video.status,
    CreateDate: formatCreateDate(video.createdAt, timeZone),
    CreateUser: video.createUser,
    PicSavePath: posterUrl(publicUrl, video),
  };
}

export function videoDetail(video: Video, publicUrl: string, timeZone: string): VideoDetail {
  return { ...videoRecord(video, publicUrl, timeZone), Duration: video.duration };
}
