import type { UploadPageBoot } from '../../shared/uploadPage';
import type { ServiceContext } from '../context';
import { ApiError, isApiError } from '../errors';
import { Params } from '../http/params';
import type { Handler } from '../http/router';
import { VideoStatus } from '../storage/videos';
import type { UploadService } from '../upload/uploadService';
import { TUS_PATH } from '../upload/tusEndpoint';
import { notifyTarget, validatePageRequest } from './pageQuery';
import { sendErrorPage, sendUploadPage } from './pages';

/**
 * GET /UploadWidget/Upload: validates the loader's query and answers with the uploader page
 * (boot data: ticket, limit, resume state) or the `ErrorCode : …` page, which carries the
 * error's HTTP status.
 */
export function uploadPageHandler(service: ServiceContext, uploads: UploadService): Handler {
  return async ({ req, res, url }) => {
    const params = new Params(url.searchParams);
    try {
      const request = validatePageRequest(service, params, req.headers['accept-language']);
      const videoId = request.video.id;
      const resume = await uploads.pendingUpload(videoId);
      // pendingUpload finishes an upload that was complete but never finished: then there is nothing left to upload.
      if (service.videos.get(videoId)?.status !== VideoStatus.NotUploaded) throw new ApiError('WRONG_STATE', 'the video already has its file');
      const maxFileSize = request.uploadType === 'silverlight' ? service.config.maxUploadBytesSilverlight : service.config.maxUploadBytesFlash;
      const boot: UploadPageBoot = {
        videoId,
        channel: request.channel,
        hostOrigin: request.hostOrigin,
        form: request.form,
        lang: request.lang,
        tusEndpoint: `${service.config.publicUrl}${TUS_PATH}/`,
        ticket: uploads.issueTicket({ appId: request.app.appId, videoId, maxFileSize, needHandleSpecial: request.needHandleSpecial }),
        maxFileSize,
        resume,
      };
      sendUploadPage(res, boot, new URL(service.config.publicUrl).origin);
    } catch (error) {
      if (!isApiError(error)) throw error;
      sendErrorPage(res, error, notifyTarget(service, params));
    }
  };
}
