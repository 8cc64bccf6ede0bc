import { startChild, type Child } from './child';

export interface BodyJob {
  method: 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  file: string;
}

export interface BodyRun {
  status: number;
  seconds: number;
}

/** A process that sends files as request bodies with node:http, one at a time. */
export function startBodyClient(): Child<BodyJob, BodyRun> {
  return startChild(new URL('./bodyClient.ts', import.meta.url));
}
