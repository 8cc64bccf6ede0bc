/**
 * API latency and throughput against a real service on 127.0.0.1 (temporary DATA_DIR): first
 * registrations (POST /Api/Video/Post), which also fill the database, then GET /Api/Video/Get and
 * GET /Api/Video/GetUserVideoList at a few client counts, the clients in another process.
 */
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { fixed, printTable } from './support/table';

/** Videos registered before the reads: "a few thousand", spread over this many users. */
const VIDEOS = 3000;
const USERS = 30;
/** Requests per read scenario, whatever the client count. */
const REQUESTS = 2000;
const TIME_LIMIT_MS = 15_000;

function query(service: TestService, fields: Record<string, string>): string {
  return new URLSearchParams({ ...service.auth(), ...fields }).toString();
}

function registrations(service: TestService): LoadRequest[] {
  return Array.from({ length: VIDEOS }, (_, index) => ({
    method: 'POST',
    url: `${service.address}/Api/Video/Post`,
    body: query(service, {
      VideoTitle: `clip ${index}`,
      Description: 'a benchmark video',
      Tags: 'bench,api',
      CreateUser: `user-${index % USERS}`,
      SourceFileGetType: '1',
    }),
  }));
}

function gets(service: TestService, ids: readonly string[]): LoadRequest[] {
  return Array.from({ length: REQUESTS }, (_, index) => ({
    method: 'GET',
    url: `${service.address}/Api/Video/Get?${query(service, { Id: ids[(index * 7919) % ids.length]! })}`,
  }));
}

function lists(service: TestService, pageSize: number): LoadRequest[] {
  return Array.from({ length: REQUESTS }, (_, index) => ({
    method: 'GET',
    url: `${service.address}/Api/Video/GetUserVideoList?${query(service, {
      createUser: `user-${index % USERS}`,
      PageIndex: String(1 + (index % 3)),
      PageSize: String(pageSize),
    })}`,
  }));
}

function row(name: string, clients: number, figures: LoadFigures): (string | number)[] {
  const { requests, failures, perSecond, p50, p95, p99 } = figures;
  return [name, clients, requests, failures, fixed(perSecond, 0), fixed(p50, 2), fixed(p95, 2), fixed(p99, 2)];
}

export async function apiBench(): Promise<void> {
  const service = await startTestService();
  const client = startLoadClient();
  try {
    const rows: (string | number)[][] = [];
    rows.push(row('POST /Api/Video/Post', 8, await runLoad(client, { requests: registrations(service), concurrency: 8, timeLimitMs: TIME_LIMIT_MS })));
    const ids = (service.context.db.prepare('SELECT id FROM videos').all() as { id: string }[]).map((video) => video.id);
    for (const clients of [1, 8, 32]) {
      rows.push(row('GET /Api/Video/Get', clients, await runLoad(client, { requests: gets(service, ids), concurrency: clients, timeLimitMs: TIME_LIMIT_MS })));
    }
    for (const pageSize of [10, 100]) {
      const name = `GET GetUserVideoList PageSize=${pageSize}`;
      rows.push(row(name, 8, await runLoad(client, { requests: lists(service, pageSize), concurrency: 8, timeLimitMs: TIME_LIMIT_MS })));
    }
    console.log(`${ids.length} videos of ${USERS} users in the database (about ${Math.round(ids.length / USERS)} each); latencies in ms\n`);
    printTable(['call', 'clients', 'requests', 'failed', 'req/s', 'p50', 'p95', 'p99'], rows);
  } finally {
    client.stop();
    await service.stop(true);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await apiBench();
