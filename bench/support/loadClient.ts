/** The load client started by `startLoadClient` in its own process: gets plans over IPC, replies with what it measured. */
import { performance } from 'node:perf_hooks';
import { serveJobs } from './child';
import type { LoadPlan, LoadReport, LoadRequest } from './load';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** True when the service answered the call as a success, in JSON or in a SOAP PostResult. */
async function send(request: LoadRequest): Promise<boolean> {
  const init = request.method === 'POST' ? { method: 'POST', headers: request.headers ?? FORM, body: request.body } : undefined;
  const res = await fetch(request.url, init);
  const text = await res.text();
  return res.status === 200 && (text.includes('"ResultCode":"1"') || text.includes('<ResultCode>1</ResultCode>'));
}

async function run(plan: LoadPlan): Promise<LoadReport> {
  const latenciesMs: number[] = [];
  let failures = 0;
  let next = 0;
  const start = performance.now();
  const stopAt = start + plan.timeLimitMs;
  const total = plan.total ?? plan.requests.length;
  const client = async () => {
    while (next < total && performance.now() < stopAt) {
      const request = plan.requests[next++ % plan.requests.length]!;
      const sent = performance.now();
      try {
        if (!(await send(request))) failures++;
      } catch {
        failures++;
      }
      latenciesMs.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, client));
  return { latenciesMs, elapsedMs: performance.now() - start, failures };
}

serveJobs(run);
