/**
 * Per-app quotas under load: one app ("quiet", no quota) reads GetUserVideoList from one client
 * for a fixed time, alone; then while 20 clients of another app ("noisy", requestsPerSecond 50)
 * hammer the same call without waiting for Retry-After, most of them refused with 116; then, for
 * comparison, while 20 clients of an app without a quota ("unlimited") do the same. The three run
 * in turn, ROUNDS times, so the machine's other work falls on all of them alike; each figure is
 * the median over the rounds. The aim: the quiet app's p99 beside the throttled app at most
 * 20 % over alone. Each app's clients run in a process of their own, and the hammering clients
 * are under way before the quiet one starts; the service uses SQLite in a temporary DATA_DIR.
 */
import type { AppRecord } from '../src/server/auth/apps';
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { median } from './support/stats';
import { fixed, printTable } from './support/table';

const APPS: AppRecord[] = [
  { appId: 'quiet', appSecret: 'secret-of-the-quiet-app-0123' },
  { appId: 'noisy', appSecret: 'secret-of-the-noisy-app-0123', quota: { requestsPerSecond: 50, requestsBurst: 100 } },
  { appId: 'unlimited', appSecret: 'secret-of-the-unlimited-app', quota: {} },
];
const NOISY_CLIENTS = 20;
const ROUNDS = 3;
/** How long the quiet client measures in each run. */
const MEASURE_MS = 6000;
/** The hammering clients' head start, so the quiet app is measured against them at full pace. */
const HEAD_START_MS = 1000;
/** More than any client sends in the time: runs are bounded by time. */
const UNBOUNDED = 10_000_000;

/** One signed GetUserVideoList of `appId`, sent again and again (its Timestamp stays valid for 600 s). */
function read(service: TestService, appId: string): LoadRequest {
  return {
    method: 'GET',
    url: `${service.address}/Api/Video/GetUserVideoList?${new URLSearchParams({ ...service.auth(appId), createUser: 'pat', PageSize: '10' })}`,
  };
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

interface Run {
  quiet: LoadFigures;
  /** The hammering app's figures, when one hammered. */
  noisy: LoadFigures | undefined;
  /**
   * CPU time of this process (the service; the bench itself only waits) per request answered,
   * in µs: what a request costs the service, which the machine's other work shifts less than latency.
   */
  cpuPerRequestUs: number;
}

/** The quiet app's reads for MEASURE_MS, while (when `appId` is given) NOISY_CLIENTS clients send `appId`'s. */
async function measure(service: TestService, quiet: LoadClient, noisy: LoadClient, appId?: string): Promise<Run> {
  const cpu = process.cpuUsage();
  const hammering = appId
    ? runLoad(noisy, {
        requests: [read(service, appId)],
        total: UNBOUNDED,
        concurrency: NOISY_CLIENTS,
        timeLimitMs: HEAD_START_MS + MEASURE_MS,
      })
    : undefined;
  if (hammering) await sleep(HEAD_START_MS);
  const measured = await runLoad(quiet, { requests: [read(service, 'quiet')], total: UNBOUNDED, concurrency: 1, timeLimitMs: MEASURE_MS });
  const hammered = await hammering;
  const { user, system } = process.cpuUsage(cpu);
  return { quiet: measured, noisy: hammered, cpuPerRequestUs: (user + system) / (measured.requests + (hammered?.requests ?? 0)) };
}

/** Each figure's median over the rounds. */
function medianOf(runs: readonly LoadFigures[]): LoadFigures {
  const pick = (field: keyof LoadFigures) => median(runs.map((run) => run[field]));
  return {
    requests: pick('requests'),
    failures: pick('failures'),
    perSecond: pick('perSecond'),
    p50: pick('p50'),
    p95: pick('p95'),
    p99: pick('p99'),
  };
}

function row(name: string, clients: number, figures: LoadFigures, cpuUs: number[] | undefined): (string | number)[] {
  const { requests, failures, perSecond, p50, p95, p99 } = figures;
  return [
    name,
    clients,
    requests,
    failures,
    fixed(perSecond, 0),
    fixed(p50, 2),
    fixed(p95, 2),
    fixed(p99, 2),
    cpuUs ? fixed(median(cpuUs), 0) : '',
  ];
}

export async function quotaBench(): Promise<void> {
  const service = await startTestService({ apps: APPS });
  const quiet = startLoadClient();
  const noisy = startLoadClient();
  try {
    for (const appId of ['quiet', 'noisy', 'unlimited']) {
      for (let i = 0; i < 5; i++)
        await service.post({ ...service.auth(appId), VideoTitle: `clip ${i}`, SourceFileGetType: '1', CreateUser: 'pat' });
    }
    // A warm-up, so no measured run pays for the first compilations.
    await runLoad(quiet, { requests: [read(service, 'quiet')], total: 500, concurrency: 1, timeLimitMs: MEASURE_MS });
    await runLoad(noisy, { requests: [read(service, 'unlimited')], total: 500, concurrency: NOISY_CLIENTS, timeLimitMs: MEASURE_MS });
    const runs = { alone: [] as Run[], throttled: [] as Run[], unthrottled: [] as Run[] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.alone.push(await measure(service, quiet, noisy));
      runs.throttled.push(await measure(service, quiet, noisy, 'noisy'));
      runs.unthrottled.push(await measure(service, quiet, noisy, 'unlimited'));
    }
    const quietOf = (list: Run[]) => medianOf(list.map((run) => run.quiet));
    const noisyOf = (list: Run[]) => medianOf(list.map((run) => run.noisy!));
    const cpuOf = (list: Run[]) => list.map((run) => run.cpuPerRequestUs);
    const [alone, throttled, unthrottled] = [quietOf(runs.alone), quietOf(runs.throttled), quietOf(runs.unthrottled)];
    printTable(
      ['run', 'clients', 'requests', 'refused or failed', 'req/s', 'p50', 'p95', 'p99', 'service CPU µs/request'],
      [
        row('quiet app alone', 1, alone, cpuOf(runs.alone)),
        row('quiet app beside the throttled one', 1, throttled, undefined),
        row('  noisy app (requestsPerSecond 50)', NOISY_CLIENTS, noisyOf(runs.throttled), cpuOf(runs.throttled)),
        row('quiet app beside one without quota', 1, unthrottled, undefined),
        row('  unlimited app', NOISY_CLIENTS, noisyOf(runs.unthrottled), cpuOf(runs.unthrottled)),
      ],
    );
    const ratio = (figures: LoadFigures) => fixed(figures.p99 / alone.p99, 2);
    const p99s = (list: Run[]) => list.map((run) => fixed(run.quiet.p99, 2)).join(', ');
    console.log(
      `\nquiet app's p99 per round (ms): alone ${p99s(runs.alone)}; beside the throttled app ${p99s(runs.throttled)}; beside the unthrottled one ${p99s(runs.unthrottled)}`,
    );
    console.log(
      `quiet app's p99 beside the throttled app / alone: ${ratio(throttled)} (aim: at most 1.20); beside the unthrottled one / alone: ${ratio(unthrottled)}; medians of ${ROUNDS} rounds of ${MEASURE_MS / 1000} s, latencies in ms; CPU per request answered in the run, both apps' (the hammering rows)`,
    );
  } finally {
    quiet.stop();
    noisy.stop();
    await service.stop(true);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await quotaBench();
