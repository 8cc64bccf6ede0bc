import type { UploadListeners } from './uploadCore';
import type { Send } from './createUploader';

/**
 * The transport's news as the machine's events of `attempt`, but where it stores the upload (a
 * chosen file's resume state, or the address of one sent while recording: the caller's).
 */
export function transportEvents(
  dispatch: Send,
  attempt: number,
  tusEndpoint: string,
  /** What the browser says of its connection now. */
  online = () => navigator.onLine !== false,
): Omit<UploadListeners, 'onStored'> {
  return {
    onProgress: (sent) => dispatch({ type: 'progress', attempt, sent }),
    onSuccess: () => dispatch({ type: 'succeeded', attempt }),
    onRefused: (code, requestId) => dispatch({ type: 'refused', attempt, code, requestId }),
    onNetworkError: (bytesUploaded) => dispatch({ type: 'networkError', attempt, bytesUploaded, online: online() }),
    onUnreachable: () => {
      // The requests go to the page's own origin (uploadCore's onPageOrigin); the service names its endpoint by PUBLIC_URL.
      const endpoint = new URL(tusEndpoint);
      dispatch({
        type: 'unreachable',
        attempt,
        pageOrigin: location.origin,
        serviceOrigin: endpoint.origin,
        uploadPath: endpoint.pathname,
      });
    },
  };
}
