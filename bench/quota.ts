/**
 * Per-app quotas under load: one app ("quiet", no quota) reads GetUserVideoList from one client,
 * alone; then while 20 clients of another app ("noisy", requestsPerSecond 50) hammer the same
 * call without waiting for Retry-After, most of them refused with 116; then, for comparison, while
 * 20 clients of an app without a quota ("unlimited") do the same. The aim: the quiet app's
 * p99 beside the throttled app rises by at most 20 %. Each app's clients run in a process of its
 * own; the service uses SQLite in a temporary DATA_DIR.
 */
import type { AppRecord } from '../src/server/auth/apps';
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { fixed, printTable } from './support/table';

const APPS: AppRecord[] = [
  { appId: 'quiet', appSecret: 'secret-of-the-quiet-app-0123' },
  { appId: 'noisy', appSecret: 'secret-of-the-noisy-app-0123', quota: { requestsPerSecond: 50, requestsBurst: 100 } },
  { appId: 'unlimited', appSecret: 'secret-of-the-unlimited-app', quota: {} },
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
    for (const appId of ['quiet', 'noisy', 'unlimited']) {
      for (let i = 0; i < 5; i++) await service.post({ ...service.auth(appId), VideoTitle: `clip ${i}`, SourceFileGetType: '1', CreateUser: 'pat' });
    }
    // A warm-up, so neither measured run pays for the first compilations.
    await runLoad(quiet, { requests: reads(service, 'quiet', 500), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
    const alone = await runLoad(quiet, { requests: reads(service, 'quiet', QUIET_REQUESTS), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
    /** The quiet app's reads while `appId`'s clients hammer; they have far more requests than they can send, and stop about when the quiet one is done. */
    const beside = async (appId: string) => {
      const hammering = runLoad(noisy, { requests: reads(service, appId, 200_000), concurrency: NOISY_CLIENTS, timeLimitMs: (alone.requests / alone.perSecond) * 1500 });
      const measured = await runLoad(quiet, { requests: reads(service, 'quiet', QUIET_REQUESTS), concurrency: 1, timeLimitMs: TIME_LIMIT_MS });
      return [measured, await hammering] as const;
    };
    const [throttled, noisyFigures] = await beside('noisy');
    const [unthrottled, unlimitedFigures] = await beside('unlimited');
    printTable(
      ['run', 'clients', 'requests', 'refused or failed', 'req/s', 'p50', 'p95', 'p99'],
      [
        row('quiet app alone', 1, alone),
        row('quiet app beside the throttled one', 1, throttled),
        row('  noisy app (requestsPerSecond 50)', NOISY_CLIENTS, noisyFigures),
        row('quiet app beside one without quota', 1, unthrottled),
        row('  unlimited app', NOISY_CLIENTS, unlimitedFigures),
      ],
    );
    const over = (figures: LoadFigures) => `${fixed((figures.p99 / alone.p99 - 1) * 100, 0)} %`;
    console.log(`\nquiet app's p99 over alone: ${over(throttled)} beside the throttled app (aim: at most +20 %), ${over(unthrottled)} beside the unthrottled one; latencies in ms`);
  } finally {
    quiet.stop();
    noisy.stop();
    await service.stop(true);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await quotaBench();
