/**
 * Per-app quotas under load: one app ("quiet", no quota) reads GetUserVideoList from one client,
 * alone, and then while 20 clients of another app ("noisy", requestsPerSecond 50) hammer the same
 * call, most of them refused with 116. The issue's aim: the quiet app's p99 rises by at most 20 %.
 * Both apps' clients run in processes of their own; the service uses SQLite in a temporary DATA_DIR.
 */
import type { AppRecord } from '../src/server/auth/apps';
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { fixed, printTable } from './support/table';

const APPS: AppRecord[] = [
  { appId: 'quiet', appSecret: 'secret-of-the-quiet-app-0123' },
  { appId: 'noisy', appSecret: 'secret-of-the-noisy-app-0123', quota: { requestsPerSecond: 50, requestsBurst: 100 } },
];
const QUIET_REQUESTS = 3000;
const NOISY_CLIENTS = 20;
const TIME_LIMIT_MS = 20_000;

function reads(service: TestService, appId: string, count: number): LoadRequest[] {
  return Array.from({ length: count }, () => ({
    method: 'GET',
    url: `${service.address}/Api/Video/GetUserVideoList?${new URLSearchParams({ ...service.auth(appId), createUser: 'pat', PageSize: '10' })}`,
  }));
}

function row(name: string, clients: number, figures: LoadFigures): (string | number)[] {
  const { requests, failures, perSecond, p50, p95, p99 } = figures;
  return [name, clients, requests, failures, fixed(perSecond, 0), fixed(p50, 2), fixed(p95, 2), fixed(p99, 2)];
}

export async function quotaBench(): Promise<void> {
  const service = await startTestService({ apps: APPS });
  const quiet = startLoadClient();
  const noisy = startLoadClient();
  try {
    for (const appId of ['quiet', 'noisy']) {
      for (let i = 0; i < 5; i++) await service.post({ ...service.auth(appId), VideoTitle: `clip ${i}`, SourceFileGetType: '1', CreateUser: 'pat' });
    }
    // A warm-up, so neither measured run pays for the first compilations.
    await runLoad(quiet, { requests: reads(service, 'quiet', 500), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
    const alone = await runLoad(quiet, { requests: reads(service, 'quiet', QUIET_REQUESTS), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
    // The noisy app has far more requests than its clients can send in the time the quiet one needs; it stops when that one is done.
    const noisyRun = runLoad(noisy, { requests: reads(service, 'noisy', 200_000), concurrency: NOISY_CLIENTS, timeLimitMs: alone.requests / alone.perSecond * 1500 });
    const beside = await runLoad(quiet, { requests: reads(service, 'quiet', QUIET_REQUESTS), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
    const hammer = await noisyRun;
    printTable(
      ['run', 'clients', 'requests', 'refused or failed', 'req/s', 'p50', 'p95', 'p99'],
      [row('quiet app alone', 1, alone), row('quiet app beside the noisy one', 1, beside), row('noisy app (requestsPerSecond 50)', NOISY_CLIENTS, hammer)],
    );
    console.log(`\nquiet app's p99 beside the noisy one: ${fixed((beside.p99 / alone.p99 - 1) * 100, 0)} % over alone (aim: at most +20 %); latencies in ms`);
  } finally {
    quiet.stop();
    noisy.stop();
    await service.stop(true);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await quotaBench();
