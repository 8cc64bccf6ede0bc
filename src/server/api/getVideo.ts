import { authenticateParams } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { Params, queryParams } from '../http/params';
import { sendOk } from '../http/reply';
import type { RequestContext } from '../http/router';
import { chargeRequest } from '../quota/quotas';
import { mediaServer, playFileList } from './mediaUrls';
import { videoDetail } from './videoRecord';
import { VideoStatus } from '../../shared/videoStatus';

/** GET /Api/Video/Get. Another app's video is reported as unknown, so ids cannot be probed across apps. */
export function getVideoHandler(service: ServiceContext) {
  return async ({ res, url }: RequestContext): Promise<void> => {
    const params = new Params(queryParams(url));
    const app = authenticateParams(service, params);
    await chargeRequest(service, app);
    const id = params.require('Id');
    const video = await service.stores.videos.get(id);
    if (!video || video.appId !== app.appId) throw new ServiceError('UNKNOWN_VIDEO', id);
    const { publicUrl, timeZone } = service.config;
    const playFiles = video.status === VideoStatus.Normal ? await service.stores.playFiles.forVideo(video.id) : [];
    sendOk(res, {
      Video: videoDetail(video, publicUrl, timeZone),
      MediaSever: mediaServer(publicUrl, video, playFiles),
      VideoPlayFile: playFileList(publicUrl, video.id, playFiles),
    });
  };
}
