import { randomUUID } from 'node:crypto';
import { authenticateParams, type ParamSource } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { Params, queryParams, readFormBody } from '../http/params';
import { sendOk } from '../http/reply';
import type { RequestContext } from '../http/router';
import { SourceFileGetType, VideoStatus } from '../../shared/videoStatus';
import { chargeRequest, checkStorageLeft } from '../quota/quotas';
import { parsePostModel } from './postModel';

/**
 * Called for each registered video, so a type-2 download can be queued (set by the processing part).
 * It runs inside the registration's transaction and is handed its context: when it throws, no
 * video row is left behind.
 */
export type OnRegistered = (ctx: ServiceContext, videoId: string, sourceGetType: SourceFileGetType) => Promise<void>;

/**
 * The one registration behind `POST /Api/Video/Post` and the SOAP `Post` operation: both only
 * map their wire format to named parameters, so authentication, the Post model rules and the
 * side effects cannot drift apart. Returns the new VideoId; failures are ApiErrors.
 */
export async function registerVideo(service: ServiceContext, onRegistered: OnRegistered, params: ParamSource): Promise<string> {
  const app = authenticateParams(service, params);
  await chargeRequest(service, app);
  const model = parsePostModel((name) => params.get(name));
  await checkStorageLeft(service, app);
  const id = randomUUID();
  await service.transaction(async (ctx) => {
    await ctx.stores.videos.insert({
      ...model,
      id,
      appId: app.appId,
      status: model.sourceGetType === SourceFileGetType.Upload ? VideoStatus.NotUploaded : VideoStatus.WaitingForDownload,
      createdAt: service.now(),
    });
    await onRegistered(ctx, id, model.sourceGetType);
  });
  service.log.info('video registered', { videoId: id, appId: app.appId, sourceGetType: model.sourceGetType });
  return id;
}

/** POST /Api/Video/Post: AppId, Timestamp and Token may travel in the query string or the form body. */
export function postVideoHandler(service: ServiceContext, onRegistered: OnRegistered = async () => {}) {
  return async ({ req, res, url }: RequestContext): Promise<void> => {
    const params = new Params(queryParams(url), await readFormBody(req));
    sendOk(res, { VideoId: await registerVideo(service, onRegistered, params) });
  };
}
