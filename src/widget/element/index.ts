/**
 * `open-video-upload/element`: the `<video-upload>` custom element, for pages and frameworks
 * without a wrapper (Vue, Svelte, Angular, plain HTML). Importing it defines the element in a
 * browser; on a server, where there is no `customElements`, it does nothing.
 */
import { videoUploadClass, type VideoUploadElement } from './VideoUploadElement';

export type { VideoUploadElement, VideoUploadEventMap } from './VideoUploadElement';
export type { UploadStatus } from '../track/trackUpload';

const TAG = 'video-upload';

/**
 * Defines `<video-upload>` in `registry` (the window's by default), unless a definition is
 * already there: importing the module twice, or two copies of the package, define it once.
 */
export function defineVideoUpload(registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  if (registry && !registry.get(TAG)) registry.define(TAG, videoUploadClass());
}

defineVideoUpload();

declare global {
  interface HTMLElementTagNameMap {
    'video-upload': VideoUploadElement;
  }
}
