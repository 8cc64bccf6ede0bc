import { useEffect, useState } from 'preact/hooks';
import { createUploader, type Uploader, type UploaderSnapshot, type UploadWiring } from './createUploader';

/**
 * What `useSyncExternalStore` does, with preact/hooks alone: preact/compat's would bring compat
 * into the page's first open (test/widget.budget.test.ts). The snapshot is read at each render;
 * a change between that render and the subscription is caught when it starts.
 */
function useStore<T>(store: { getSnapshot(): T; subscribe(listener: () => void): () => void }): T {
  const [, follow] = useState<T>(store.getSnapshot);
  useEffect(() => {
    const changed = () => follow(store.getSnapshot());
    changed();
    return store.subscribe(changed);
  }, [store]);
  return store.getSnapshot();
}

/**
 * The uploader (createUploader.ts) for a Preact view: made once, with the wiring of the first
 * render, and kept for the component's life, so nothing it holds (the transport, its timers, the
 * recorder) is lost when a render passes new props or functions.
 */
export function useUploadMachine(wiring: UploadWiring): Pick<Uploader, 'send' | 'setup' | 'meter'> & UploaderSnapshot {
  const [uploader] = useState(() => createUploader(wiring));
  const { model, recorder } = useStore(uploader);
  useEffect(() => uploader.start(), [uploader]);
  return { model, recorder, send: uploader.send, setup: uploader.setup, meter: uploader.meter };
}
