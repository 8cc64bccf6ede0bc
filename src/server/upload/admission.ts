import type { ServiceContext } from '../context';
import { ApiError } from '../errors';
import { VideoStatus } from '../storage/videos';
import type { TicketClaims } from './ticket';
import type { UploadRow, UploadRows } from './uploadRows';

/**
 * Whether a ticket's video may receive a new upload: it must still be this app's type-1 video
 * waiting for its file, with no finished upload. Returns the unfinished upload the new one
 * replaces (a video has at most one), if there is one.
 */
export function admitNewUpload(service: ServiceContext, rows: UploadRows, claims: TicketClaims): UploadRow | undefined {
  const video = service.videos.get(claims.videoId);
  if (!video || video.app_id !== claims.appId) throw new ApiError('UNKNOWN_VIDEO');
  if (video.source_get_type !== 1 || video.status !== VideoStatus.NotUploaded) {
    throw new ApiError('WRONG_STATE', 'the video is not waiting for an uploaded file');
  }
  const existing = rows.forVideo(video.id);
  if (existing && existing.finished_at !== null) throw new ApiError('WRONG_STATE', 'the video already has its file');
  return existing;
}
