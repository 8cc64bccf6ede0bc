/**
 * The recorder's chunk (issue 23): loaded by createUploader.ts at the first `openSource`, so a
 * page that never records carries none of it (test/widget.budget.test.ts).
 */
import { RecordPanel, recordingStatus } from './RecordPanel';
import { recorderSession as session, type SessionDeps } from './session';
import { RECORDER_STATES } from './transitions';

/**
 * The page lists only its entry's CSS (vite.config.ts turns Vite's preloading off), so the
 * recorder's styles come with its chunk: a file beside it, which the page's CSP (`style-src
 * 'self'`) allows where an inline style would not be.
 */
function addStyles(): void {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('./recorder.css', import.meta.url).href;
  document.head.append(link);
}

function recorderSession(deps: SessionDeps) {
  addStyles();
  return session(deps);
}

export { RecordPanel, RECORDER_STATES, recorderSession, recordingStatus };

export interface RecorderKit {
  RecordPanel: typeof RecordPanel;
  recorderSession: typeof recorderSession;
  RECORDER_STATES: typeof RECORDER_STATES;
  recordingStatus: typeof recordingStatus;
}
