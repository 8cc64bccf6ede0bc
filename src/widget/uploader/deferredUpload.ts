import type { StartUpload, UploadControl } from './uploadCore';

/**
 * A StartUpload that loads the transport (tus-js-client, most of the page's code) only when it
 * is first needed, so the file input is usable before it arrives. Pause before it has loaded
 * means it does not start; a failed load is a network error, and resume tries the load again.
 */
export function deferredUpload(load: () => Promise<StartUpload>): StartUpload {
  return (request, listeners) => {
    let control: UploadControl | undefined;
    let running = true;
    const begin = () => {
      load().then(
        (start) => {
          if (running && !control) control = start(request, listeners);
        },
        () => {
          if (running) listeners.onNetworkError(request.resume?.offset ?? 0);
        },
      );
    };
    begin();
    return {
      pause() {
        running = false;
        control?.pause();
      },
      resume() {
        running = true;
        if (control) control.resume();
        else begin();
      },
    };
  };
}
