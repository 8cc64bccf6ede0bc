import { ServiceError } from '../errors';
import type { Stores } from '../storage/stores';
import type { Upload } from '../storage/uploads';
import { SourceFileGetType, VideoStatus } from '../../shared/videoStatus';
import type { TicketClaims } from './ticket';

/**
 * Whether a ticket's video may receive a new upload: it must still be this app's type-1 video
 * waiting for its file, with no finished upload. Returns the unfinished upload the new one
 * replaces (a video has at most one), if there is one.
 */
export async function admitNewUpload(stores: Stores, claims: TicketClaims): Promise<Upload | undefined> {
  const { videos, uploads } = stores;
  const video = await videos.get(claims.videoId);
  if (!video || video.appId !== claims.appId) throw new ServiceError('UNKNOWN_VIDEO');
  if (video.sourceGetType !== SourceFileGetType.Upload || video.status !== VideoStatus.NotUploaded) {
    throw new ServiceError('WRONG_STATE', 'the video is not waiting for an uploaded file');
  }
  const existing = await uploads.forVideo(video.id);
  if (existing && existing.finishedAt !== null) throw new ServiceError('WRONG_STATE', 'the video already has its file');
  return existing;
}
