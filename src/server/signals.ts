import { EventEmitter } from 'node:events';
import { withoutLogFields } from './log';

/** Nudges between parts of the service; the database stays the source of truth, these only wake workers early. */
export interface ServiceSignalMap {
  /** A processing job was queued. */
  jobQueued: [videoId: string];
  /** A status callback was queued. */
  callbackQueued: [videoId: string];
}

export class ServiceSignals extends EventEmitter<ServiceSignalMap> {
  /** Listeners start background work (jobs, callbacks): its log lines must not carry the id of the request that nudged it. */
  override emit<K extends keyof ServiceSignalMap>(name: K, ...args: ServiceSignalMap[K]): boolean {
    return withoutLogFields(() => super.emit(name as keyof ServiceSignalMap, ...(args as [string])));
  }
}
