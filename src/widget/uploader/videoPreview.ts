/** What the browser could tell about a chosen video without reading it whole. */
export type PreviewResult =
  | { kind: 'ready'; poster: string; duration: number; width: number; height: number }
  /** The browser cannot decode this format (or it holds no picture). */
  | { kind: 'none' };

/** Give up on a file the browser neither decodes nor refuses in this long. */
const PREVIEW_TIMEOUT_MS = 15_000;
/** Poster frames are small: the preview is a thumbnail, and a data URL of a large frame costs memory. */
const POSTER_WIDTH = 320;

/**
 * A poster frame, the duration and the resolution of `file`, from a `<video>` on an object URL:
 * the browser reads only the parts it needs (the header, an index, one frame; ranges of the
 * blob), never the whole file. The frame is copied to a JPEG data URL, then the object URL is
 * revoked and the element let go. Resolves `none` when the browser cannot decode the format.
 * `signal` abandons it (the person chose another file).
 */
export function previewVideo(file: File, signal: AbortSignal, doc: Document = document): Promise<PreviewResult> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = doc.createElement('video');
    const finish = (result: PreviewResult) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abandon);
      video.onloadedmetadata = video.onseeked = video.onerror = null;
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(result);
    };
    const abandon = () => finish({ kind: 'none' });
    signal.addEventListener('abort', abandon);
    const timer = setTimeout(abandon, PREVIEW_TIMEOUT_MS);

    video.muted = true;
    video.preload = 'metadata';
    video.onerror = abandon;
    video.onloadedmetadata = () => {
      if (!video.videoWidth) return abandon();
      // A frame a little way in: the very first is often black. WebM may not know its duration (Infinity).
      video.currentTime = Number.isFinite(video.duration) ? Math.min(1, video.duration / 10) : 0;
    };
    video.onseeked = () => {
      const scale = Math.min(1, POSTER_WIDTH / video.videoWidth);
      const canvas = doc.createElement('canvas');
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
      finish({
        kind: 'ready',
        poster: canvas.toDataURL('image/jpeg', 0.8),
        duration: video.duration,
        width: video.videoWidth,
        height: video.videoHeight,
      });
    };
    video.src = url;
  });
}
