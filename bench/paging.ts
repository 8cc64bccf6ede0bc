/**
 * On SQLite, then on PostgreSQL (a throwaway cluster, as the tests make): list paging with 100,000 videos under one user (seeded through the video store, so seeding
 * takes seconds, not a registration run): GetUserVideoList's first and last page from one client,
 * then GET /Api/Video/Get from one client alone and while 16 other clients read the last page,
 * since SQLite runs on the service's event loop and a slow page would hold every other request.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { VideoStatus } from '../src/shared/videoStatus';
import { startPostgres } from '../test/support/postgres';
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { fixed, printTable } from './support/table';

const VIDEOS = 100_000;
const USER = 'deep';
const LIST_REQUESTS = 500;
const GET_REQUESTS = 1000;
const TIME_LIMIT_MS = 20_000;
/** The 16 clients send until this time is up: far longer than the Gets beside them should take. */
const DEEP_LOAD_MS = 8_000;
/** Enough for the whole time, yet small enough to hand to the client at once (the plan crosses IPC). */
const DEEP_REQUESTS = 40_000;
/** Gets beside the load stop after this, so every one of them meets the load. */
const GETS_UNDER_LOAD_MS = 6_000;

async function seed(service: TestService): Promise<string[]> {
  const ids: string[] = [];
  const start = Date.now() - VIDEOS * 1000;
  await service.context.stores.transaction(async (tx) => {
    for (let n = 0; n < VIDEOS; n++) {
      const id = randomUUID();
      ids.push(id);
      await tx.videos.insert({
        id,
        appId: 'app-a',
        title: `clip ${n}`,
        description: 'a benchmark video',
        tags: 'bench,paging',
        actors: '',
        createUser: USER,
        sourceGetType: 1,
        sourcePath: '',
        status: VideoStatus.NotUploaded,
        // Three videos per second, so equal times (the tie-breaker) are common.
        createdAt: start + Math.floor(n / 3) * 1000,
      });
    }
  });
  return ids;
}

function listPage(service: TestService, pageIndex: number, pageSize: number, count: number): LoadRequest[] {
  return Array.from({ length: count }, () => ({
    method: 'GET',
    url: `${service.address}/Api/Video/GetUserVideoList?${new URLSearchParams({
      ...service.auth(),
      createUser: USER,
      PageIndex: String(pageIndex),
      PageSize: String(pageSize),
    })}`,
  }));
}

function gets(service: TestService, ids: readonly string[]): LoadRequest[] {
  return Array.from({ length: GET_REQUESTS }, (_, index) => ({
    method: 'GET',
    url: `${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: ids[(index * 7919) % ids.length]! })}`,
  }));
}

function row(name: string, clients: string, figures: LoadFigures): (string | number)[] {
  const { requests, failures, p50, p95, p99 } = figures;
  return [name, clients, requests, failures, fixed(p50, 2), fixed(p95, 2), fixed(p99, 2)];
}

export async function pagingBench(): Promise<void> {
  await pagingOn('SQLite', {});
  const postgres = await startPostgres();
  try {
    await pagingOn('PostgreSQL', { DATABASE_URL: await postgres.newDatabase() });
  } finally {
    await postgres.stop();
  }
}

async function pagingOn(database: string, env: Record<string, string>): Promise<void> {
  const service = await startTestService({ env });
  const client = startLoadClient();
  const background = startLoadClient();
  try {
    const seeded = Date.now();
    const ids = await seed(service);
    // A bulk insert leaves PostgreSQL's visibility map unset, so index-only scans still visit every
    // row until autovacuum runs; measure the table as it is once autovacuum has (seconds later).
    if (service.context.stores.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(service.db);
    console.log(`${database}: ${VIDEOS} videos of one user seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s; latencies in ms\n`);
    const rows: (string | number)[][] = [];
    for (const pageSize of [10, 100]) {
      const last = Math.ceil(VIDEOS / pageSize);
      for (const [label, pageIndex] of [
        ['first', 1],
        ['middle', Math.ceil(last / 2)],
        ['last', last],
      ] as const) {
        const requests = listPage(service, pageIndex, pageSize, LIST_REQUESTS);
        rows.push(
          row(
            `GetUserVideoList ${label} page (PageIndex ${pageIndex}, PageSize ${pageSize})`,
            '1',
            await runLoad(client, { requests, concurrency: 1, timeLimitMs: TIME_LIMIT_MS }),
          ),
        );
      }
    }
    rows.push(
      row(
        'GET /Api/Video/Get, alone',
        '1',
        await runLoad(client, { requests: gets(service, ids), concurrency: 1, timeLimitMs: TIME_LIMIT_MS }),
      ),
    );
    const deepLast = Math.ceil(VIDEOS / 10);
    const deep = runLoad(background, {
      requests: listPage(service, deepLast, 10, DEEP_REQUESTS),
      concurrency: 16,
      timeLimitMs: DEEP_LOAD_MS,
    });
    // The load is under way before the Gets start.
    await new Promise((wake) => setTimeout(wake, 1000));
    const underLoad = await runLoad(client, { requests: gets(service, ids), concurrency: 1, timeLimitMs: GETS_UNDER_LOAD_MS });
    rows.push(row(`GET /Api/Video/Get, while 16 clients read PageIndex ${deepLast}`, '1 + 16', underLoad));
    rows.push(row(`  the 16 clients' last pages (PageSize 10)`, '16', await deep));
    printTable(['call', 'clients', 'requests', 'failed', 'p50', 'p95', 'p99'], rows);
    console.log('');
  } finally {
    client.stop();
    background.stop();
    await service.stop(true);
  }
}
