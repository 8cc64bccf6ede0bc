/**
 * `open-video-upload/react`: the widget for React 18 and 19 (an optional peer: the package has
 * no dependencies). Built on `openUpload`, which the package's main entry exports.
 */
export { useVideoUpload, type VideoUpload } from './useVideoUpload';
export { VideoUploadButton, type VideoUploadButtonProps } from './VideoUploadButton';
export type { UploadSnapshot, UploadStatus } from '../track/trackUpload';
export type { VideoUploadAttributes } from './jsx';
