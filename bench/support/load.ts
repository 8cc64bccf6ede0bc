import { fork } from 'node:child_process';
import { percentile } from './stats';

export interface LoadRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Form body (`application/x-www-form-urlencoded`) of a POST. */
  body?: string;
}

export interface LoadPlan {
  /** Sent in this order, each by the next free client. */
  requests: readonly LoadRequest[];
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

/**
 * Sends the plan from a separate Node process, so the service in this process keeps its event
 * loop (and a core) to itself, as it would with real clients.
 */
export function runLoad(plan: LoadPlan): Promise<LoadFigures> {
  return new Promise((resolve, reject) => {
    const client = fork(new URL('./loadClient.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let report: LoadReport | undefined;
    client.on('message', (message) => {
      report = message as LoadReport;
    });
    client.on('error', reject);
    client.on('exit', (code) => {
      if (!report) return reject(new Error(`load client exited with ${code} before reporting`));
      const sorted = [...report.latenciesMs].sort((a, b) => a - b);
      resolve({
        requests: sorted.length,
        failures: report.failures,
        perSecond: sorted.length / (report.elapsedMs / 1000),
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        p99: percentile(sorted, 0.99),
      });
    });
    client.send(plan);
  });
}
