import type { UploadPageBoot } from '../../shared/uploadPage';
import { RECORDING_TEXTS } from '../../shared/i18n/recordingTexts';
import type { ServiceContext } from '../context';
import { ServiceError, isServiceError } from '../errors';
import { Params, queryParams } from '../http/params';
import type { Handler } from '../http/router';
import { VideoStatus } from '../../shared/videoStatus';
import type { UploadService } from '../upload/uploadService';
import { TUS_PATH } from '../upload/tusEndpoint';
import { errorPageLook, notifyTarget, validatePageRequest } from './pageQuery';
import { sendErrorPage, sendUploadPage } from './pages';
import { uploaderAssetsReader } from './uploaderAssets';

/**
 * GET /UploadWidget/Upload: validates the loader's query and answers with the uploader page
 * (boot data: ticket, limit, resume state) or the `ErrorCode : …` page, which carries the
 * error's HTTP status (500 for a failure of the service's own).
 */
export function uploadPageHandler(service: ServiceContext, uploads: UploadService): Handler {
  const assets = uploaderAssetsReader(service.config.distDir);
  // The error page is shown unstyled rather than not at all when the build's manifest is unreadable.
  const stylesOrNone = (): readonly string[] => {
    try {
      return assets().styles;
    } catch {
      return [];
    }
  };
  return async ({ req, res, url, requestId }) => {
    // Read leniently first so that a query refused as not UTF-8 still gets an error page that
    // reaches the host and speaks its language: the values used for that (channel, origin, lang,
    // theme) are checked against fixed patterns or the app's list, never shown or stored.
    let params = new Params(url.searchParams);
    try {
      params = new Params(queryParams(url));
      const request = await validatePageRequest(service, params, req.headers['accept-language']);
      const videoId = request.video.id;
      const resume = await uploads.pendingUpload(videoId);
      // pendingUpload finishes an upload that was complete but never finished: then there is nothing left to upload.
      if ((await service.stores.videos.get(videoId))?.status !== VideoStatus.NotUploaded)
        throw new ServiceError('WRONG_STATE', 'the video already has its file');
      const serviceLimit =
        request.uploadType === 'silverlight' ? service.config.maxUploadBytesSilverlight : service.config.maxUploadBytesFlash;
      // The page's limit only narrows the service's; the ticket carries it, so tus enforces it too.
      const { maxFileSize: pageLimit, ...limits } = request.restrictions;
      const maxFileSize = Math.min(serviceLimit, pageLimit ?? serviceLimit);
      const boot: UploadPageBoot = {
        videoId,
        channel: request.channel,
        hostOrigin: request.hostOrigin,
        form: request.form,
        lang: request.lang,
        // A page that records gets the recorder's words with its boot data (recordingTexts.ts says why).
        strings: request.sources.some((source) => source !== 'file')
          ? { ...RECORDING_TEXTS[request.lang], ...request.strings }
          : request.strings,
        look: request.look,
        tusEndpoint: `${service.config.publicUrl}${TUS_PATH}/`,
        ticket: uploads.issueTicket({
          appId: request.app.appId,
          appSecret: request.secret,
          videoId,
          maxFileSize,
          needHandleSpecial: request.needHandleSepcial,
        }),
        maxFileSize,
        limits,
        sources: request.sources,
        uploadWhileRecording: request.uploadWhileRecording,
        uploadChunkBytes: service.config.uploadChunkBytes,
        resume,
      };
      sendUploadPage(res, boot, new URL(service.config.publicUrl).origin, assets());
    } catch (error) {
      // The page is framed by the host: whatever failed (a disk error, say), it shows the error page, never JSON.
      // A lost database or a full disk gets its own code there too (114, 113), logged once per outage.
      const failure = service.outages.answer(error);
      if (!failure && !isServiceError(error)) service.log.error('upload page failed', { error: String((error as Error)?.stack ?? error) });
      const shown = failure ?? (isServiceError(error) ? error : new ServiceError('INTERNAL'));
      sendErrorPage(
        res,
        shown,
        notifyTarget(service, params),
        errorPageLook(params, req.headers['accept-language']),
        stylesOrNone(),
        requestId,
      );
    }
  };
}
