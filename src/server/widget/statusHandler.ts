import { TICKET_HEADER, type ProcessingStatusReply } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { sendJson } from '../http/reply';
import type { Handler } from '../http/router';
import type { UploadService } from '../upload/uploadService';

/**
 * GET /UploadWidget/Status: the status of the one video the page's ticket names, so the
 * uploader can show processing after the upload until 1 (ready) or 7 (failed). The ticket is
 * the page's only credential (the AppSecret never reaches a browser); it reveals nothing beyond
 * that video's status number.
 */
export function statusHandler(service: ServiceContext, uploads: UploadService): Handler {
  return async ({ req, res }) => {
    const claims = uploads.verifyTicket(req.headers[TICKET_HEADER.toLowerCase()] as string | undefined);
    const video = await service.stores.videos.get(claims.videoId);
    if (!video || video.appId !== claims.appId) throw new ServiceError('UNKNOWN_VIDEO');
    sendJson(res, 200, { VideoStatus: video.status } satisfies ProcessingStatusReply);
  };
}
