/**
 * `open-video-upload/sdk`: for an app's backend (Node >= 20.19, no dependencies). It signs the
 * service's API calls, makes the widget config for the app's page, and checks status callbacks.
 * The AppSecret stays in the process that calls it.
 */
export {
  createClient,
  type ClientOptions,
  type FetchLike,
  type ListUserVideosByAIdQuery,
  type ListUserVideosQuery,
  type PostVideoModel,
  type VideoClient,
  type WidgetAuth,
} from './client';
export { ApiError, CallbackError, isApiError, isCallbackError, type CallbackRefusal } from './errors';
export {
  verifyCallback,
  type CallbackBody,
  type CallbackHeaders,
  type VerifiedCallback,
  type VerifyCallbackOptions,
} from './verifyCallback';
export type * from '../shared/apiReplies';
export { SourceFileGetType, VideoStatus } from '../shared/videoStatus';
