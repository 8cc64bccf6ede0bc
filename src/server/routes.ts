import { getVideoHandler } from './api/getVideo';
import { listVideosHandler } from './api/listVideos';
import { postVideoHandler, type OnRegistered } from './api/postVideo';
import type { ServiceContext } from './context';
import type { Route } from './http/router';
import { mediaHandler } from './media/mediaHandler';
import { soapRoutes } from './soap/soapRoutes';
import { operatorRoutes, type OperatorOptions } from './operator/operatorRoutes';
import type { UploadService } from './upload/uploadService';
import { widgetRoutes } from './widget/widgetRoutes';

export interface RouteHooks {
  onRegistered?: OnRegistered;
  /** The upload widget's tickets and tus endpoint; without it the widget's paths are not served. */
  uploads?: UploadService;
  operator?: OperatorOptions;
}

/** Every path the service answers. */
export function apiRoutes(service: ServiceContext, hooks: RouteHooks = {}): Route[] {
  return [
    { method: 'POST', path: '/Api/Video/Post', handler: postVideoHandler(service, hooks.onRegistered) },
    { method: 'GET', path: '/Api/Video/Get', handler: getVideoHandler(service) },
    { method: 'GET', path: '/Api/Video/GetUserVideoList', handler: listVideosHandler(service, false) },
    { method: 'GET', path: '/Api/Video/GetUserVideoListByAId', handler: listVideosHandler(service, true) },
    { method: 'GET', path: '/Media/*', handler: mediaHandler(service) },
    ...soapRoutes(service, hooks.onRegistered),
    ...(hooks.uploads ? widgetRoutes(service, hooks.uploads) : []),
    ...operatorRoutes(service, hooks.operator),
  ];
}
