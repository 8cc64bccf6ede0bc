import { openUpload } from '../index';
import type {
  ModuleUploadConfig,
  UploadProgressInfo,
  UploadSuccessInfo,
  UploadWidgetError,
  UploadWidgetHandle,
} from '../../shared/widgetConfig';

/**
 * Where one open of the widget stands, as the React hook and the `<video-upload>` element both
 * show it:
 * - `idle`: nothing open (also after a close with nothing uploaded and no problem);
 * - `open`: the uploader is open, no byte has moved yet;
 * - `progress`: bytes are moving (`progress` holds the latest figure);
 * - `done`: the service stored the file (`result`); the uploader may still be open;
 * - `failed`: the widget ended after a refusal or an outage (`error`).
 */
export type UploadStatus = 'idle' | 'open' | 'progress' | 'done' | 'failed';

export interface UploadSnapshot {
  state: UploadStatus;
  /** The latest `onProgress` figure of this open. */
  progress: UploadProgressInfo | undefined;
  /** `onSuccess`'s info, once `state` is `done`. */
  result: UploadSuccessInfo | undefined;
  /** Why `done` rejected: set with `failed`, and with `idle` after a plain close. */
  error: UploadWidgetError | undefined;
}

export const IDLE: UploadSnapshot = { state: 'idle', progress: undefined, result: undefined, error: undefined };

/**
 * Opens the widget with `config` (its own handlers still called) and reports each snapshot after
 * the first (`open`, which the caller shows as it returns).
 * Runs `openUpload` synchronously, so calling it from a click keeps the popup allowed; it throws
 * as `openUpload` does for a malformed config.
 */
export function trackUpload(config: ModuleUploadConfig, report: (snapshot: UploadSnapshot) => void): UploadWidgetHandle {
  let snapshot: UploadSnapshot = { ...IDLE, state: 'open' };
  const set = (change: Partial<UploadSnapshot>) => {
    snapshot = { ...snapshot, ...change };
    report(snapshot);
  };
  const handle = openUpload({
    ...config,
    onProgress(info) {
      if (snapshot.state !== 'done') set({ state: 'progress', progress: info });
      config.onProgress?.(info);
    },
    onSuccess(info) {
      set({ state: 'done', result: info });
      config.onSuccess?.(info);
    },
  });
  // `done` resolves with onSuccess (already reported) and otherwise rejects once the widget ends.
  handle.done.catch((error: UploadWidgetError) => set({ state: error.kind === 'closed' ? 'idle' : 'failed', error }));
  return handle;
}
