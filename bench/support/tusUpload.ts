import { startChild, type Child } from './child';

export interface TusJob {
  /** From the upload page's boot data. */
  endpoint: string;
  ticket: string;
  file: string;
  /** Bytes per PATCH; Infinity sends the file in one PATCH. */
  chunkSize: number;
  /** Resume this upload instead of creating one. */
  uploadUrl?: string;
  /** Abort, as a closed tab would, once this many bytes are accepted. */
  stopAfter?: number;
  /** The client gives up after this long. */
  timeLimitMs: number;
}

export interface TusRun {
  url: string;
  patches: number;
  /** Bytes the service accepted in this run's PATCHes. */
  bytes: number;
  /** From start to success (or to the abort). */
  seconds: number;
}

/** A process that runs tus-js-client uploads, one at a time, as the uploader does in the browser. */
export function startTusClient(): Child<TusJob, TusRun> {
  return startChild(new URL('./tusClient.ts', import.meta.url));
}
