import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModuleUploadConfig, UploadWidgetHandle } from '../../shared/widgetConfig';
import { IDLE, trackUpload, type UploadSnapshot } from '../track/trackUpload';

export interface VideoUpload extends UploadSnapshot {
  /**
   * Opens the uploader with `config` (the options of `openUpload`; its handlers are still
   * called). Call it inside the click handler, not after an `await`: browsers block a popup
   * opened later (the widget then falls back to the overlay). Closes this hook's earlier widget,
   * if one is open.
   */
  open(config: ModuleUploadConfig): UploadWidgetHandle;
  /** Closes the open widget, as its × does. */
  close(): void;
}

/**
 * The widget as React state: `state` (`idle`, `open`, `progress`, `done`, `failed`), the latest
 * `progress`, the `result` and the `error`, with `open` and `close`. The widget closes when the
 * component unmounts. Nothing here touches `window` before `open`, so it renders on the server.
 */
export function useVideoUpload(): VideoUpload {
  const [snapshot, setSnapshot] = useState<UploadSnapshot>(IDLE);
  const current = useRef<UploadWidgetHandle | undefined>(undefined);

  // Set up again on every mount: React's StrictMode unmounts and mounts each component once more.
  useEffect(
    () => () => {
      const handle = current.current;
      current.current = undefined;
      handle?.close();
    },
    [],
  );

  const open = useCallback((config: ModuleUploadConfig) => {
    const previous = current.current;
    current.current = undefined;
    previous?.close();
    const handle = trackUpload(config, (next) => {
      // A widget this hook has replaced or closed on unmount reports no more.
      if (current.current === handle) setSnapshot(next);
    });
    current.current = handle;
    setSnapshot({ ...IDLE, state: 'open' });
    return handle;
  }, []);

  const close = useCallback(() => current.current?.close(), []);

  return { ...snapshot, open, close };
}
