import { authenticateParams } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { Params, queryParams } from '../http/params';
import { sendOk } from '../http/reply';
import type { RequestContext } from '../http/router';
import { chargeRequest } from '../quota/quotas';
import { readPaging } from './paging';
import { POST_LIMITS, cutToCodePoints } from './postModel';
import { videoRecord } from './videoRecord';

/**
 * GET /Api/Video/GetUserVideoList (the caller's own videos) and
 * GET /Api/Video/GetUserVideoListByAId (the videos registered by app `aId`, which must be the
 * caller itself or listed in the caller's `readableApps`).
 */
export function listVideosHandler(service: ServiceContext, byAId: boolean) {
  return async ({ res, url }: RequestContext): Promise<void> => {
    const params = new Params(queryParams(url));
    const app = authenticateParams(service, params);
    await chargeRequest(service, app);
    // Stored names were cut to 50 code points, so the query is cut the same way to find them.
    const createUser = cutToCodePoints(params.require('createUser'), POST_LIMITS.CreateUser);
    let owner = app.appId;
    if (byAId) {
      owner = params.require('aId');
      if (owner !== app.appId && !app.readableApps?.includes(owner)) {
        throw new ServiceError('NO_PERMISSION', `this app may not read the videos of aId ${owner}`);
      }
    }
    const { pageIndex, pageSize } = readPaging((name) => params.get(name));
    const page = await service.stores.videos.listByUser(owner, createUser, pageIndex, pageSize);
    const { publicUrl, timeZone } = service.config;
    sendOk(res, { Total: page.total, VideoList: page.videos.map((video) => videoRecord(video, publicUrl, timeZone)) });
  };
}
