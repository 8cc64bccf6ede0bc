import { EventEmitter } from 'node:events';

/** Nudges between parts of the service; the database stays the source of truth, these only wake workers early. */
export interface ServiceSignalMap {
  /** A processing job was queued. */
  jobQueued: [videoId: string];
  /** A status callback was queued. */
  callbackQueued: [videoId: string];
}

export class ServiceSignals extends EventEmitter<ServiceSignalMap> {}
