import { startChild, type Child } from './child';
import { percentile } from './stats';

export interface LoadRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Body of a POST: a form (`application/x-www-form-urlencoded`) unless `headers` say otherwise. */
  body?: string;
  /** Headers of a POST in place of the form's Content-Type (a SOAP call's). */
  headers?: Record<string, string>;
}

export interface LoadPlan {
  /** Sent in this order, each by the next free client. */
  requests: readonly LoadRequest[];
  /**
   * Send this many, taking `requests` in turn from the start again when they run out; default
   * their number. Lets a hammering plan be a few requests long instead of megabytes of IPC.
   */
  total?: number;
  /** Clients sending at once, each one request at a time. */
  concurrency: number;
  /** Clients stop taking requests after this long, so a slow service cannot stall the bench. */
  timeLimitMs: number;
}

/** What the client process sends back. */
export interface LoadReport {
  /** Milliseconds per answered request, first byte sent to last byte read. */
  latenciesMs: number[];
  elapsedMs: number;
  /** Replies other than 200 with ResultCode "1", and requests that failed outright. */
  failures: number;
}

export interface LoadFigures {
  requests: number;
  failures: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export type LoadClient = Child<LoadPlan, LoadReport>;

/** A process that sends the plans, so the service keeps its event loop to itself, as with real clients. */
export function startLoadClient(): LoadClient {
  return startChild(new URL('./loadClient.ts', import.meta.url));
}

export async function runLoad(client: LoadClient, plan: LoadPlan): Promise<LoadFigures> {
  const report = await client.run(plan);
  const sorted = [...report.latenciesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    failures: report.failures,
    perSecond: sorted.length / (report.elapsedMs / 1000),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
  };
}
