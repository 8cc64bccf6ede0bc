import { randomUUID } from 'node:crypto';
import { authenticateParams } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { Params, readFormBody } from '../http/params';
import { sendOk } from '../http/reply';
import type { RequestContext } from '../http/router';
import { VideoStatus } from '../storage/videos';
import { parsePostModel } from './postModel';

/**
 * Called for each registered video, so a type-2 download can be queued (set by the processing part).
 * It runs inside the registration's transaction: when it throws, no video row is left behind.
 */
export type OnRegistered = (videoId: string, sourceGetType: 1 | 2) => void;

/** POST /Api/Video/Post: AppId, Timestamp and Token may travel in the query string or the form body. */
export function postVideoHandler(service: ServiceContext, onRegistered: OnRegistered = () => {}) {
  return async ({ req, res, url }: RequestContext): Promise<void> => {
    const params = new Params(url.searchParams, await readFormBody(req));
    const app = authenticateParams(service, params);
    const model = parsePostModel((name) => params.get(name));
    const id = randomUUID();
    service.db.transaction(() => {
      service.videos.insert({
        id,
        appId: app.appId,
        title: model.title,
        description: model.description,
        tags: model.tags,
        actors: model.actors,
        createUser: model.createUser,
        sourceGetType: model.sourceGetType,
        sourcePath: model.sourcePath,
        status: model.sourceGetType === 1 ? VideoStatus.NotUploaded : VideoStatus.WaitingForDownload,
        createdAt: service.now(),
      });
      onRegistered(id, model.sourceGetType);
    })();
    service.log.info('video registered', { videoId: id, appId: app.appId, sourceGetType: model.sourceGetType });
    sendOk(res, { VideoId: id });
  };
}
