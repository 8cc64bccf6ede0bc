/**
 * API latency and throughput against a real service on 127.0.0.1 (temporary DATA_DIR): first
 * registrations (POST /Api/Video/Post), which also fill the database, then GET /Api/Video/Get and
 * GET /Api/Video/GetUserVideoList at a few client counts, then registrations through the SOAP
 * service (the same registration behind an XML envelope), the clients in another process.
 */
import { startTestService, type TestService } from '../test/support/service';
import { runLoad, startLoadClient, type LoadFigures, type LoadRequest } from './support/load';
import { fixed, printTable } from './support/table';

/** Videos registered before the reads: "a few thousand", spread over this many users. */
const VIDEOS = 3000;
const USERS = 30;
/** Requests per read scenario, whatever the client count. */
const REQUESTS = 2000;
/** SOAP registrations after the reads, so the read figures keep the same database. */
const SOAP_VIDEOS = 3000;
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

/** Registrations through the SOAP 1.1 `Post`, as a generated client sends them. */
function soapRegistrations(service: TestService): LoadRequest[] {
  return Array.from({ length: SOAP_VIDEOS }, (_, index) => {
    const { AppId, Timestamp, Token } = service.auth();
    return {
      method: 'POST',
      url: `${service.address}/WebService/VideoService.asmx`,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/Post"' },
      body:
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
        `<Post xmlns="http://tempuri.org/"><AppId>${AppId}</AppId><Timestamp>${Timestamp}</Timestamp><Token>${Token}</Token>` +
        `<VideoInfo><VideoTitle>soap clip ${index}</VideoTitle><Description>a benchmark video</Description><Tags>bench,soap</Tags>` +
        `<CreateUser>soap-user</CreateUser><SourceFileGetType>1</SourceFileGetType></VideoInfo></Post></soap:Body></soap:Envelope>`,
    };
  });
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
    rows.push(
      row(
        'POST /Api/Video/Post',
        8,
        await runLoad(client, { requests: registrations(service), concurrency: 8, timeLimitMs: TIME_LIMIT_MS }),
      ),
    );
    const ids = (await service.db.selectFrom('videos').select('id').execute()).map((video) => video.id);
    for (const clients of [1, 8, 32]) {
      rows.push(
        row(
          'GET /Api/Video/Get',
          clients,
          await runLoad(client, { requests: gets(service, ids), concurrency: clients, timeLimitMs: TIME_LIMIT_MS }),
        ),
      );
    }
    for (const pageSize of [10, 100]) {
      const name = `GET GetUserVideoList PageSize=${pageSize}`;
      rows.push(row(name, 8, await runLoad(client, { requests: lists(service, pageSize), concurrency: 8, timeLimitMs: TIME_LIMIT_MS })));
    }
    rows.push(
      row(
        'POST VideoService.asmx (SOAP 1.1 Post)',
        8,
        await runLoad(client, { requests: soapRegistrations(service), concurrency: 8, timeLimitMs: TIME_LIMIT_MS }),
      ),
    );
    console.log(`${ids.length} videos of ${USERS} users in the database (about ${Math.round(ids.length / USERS)} each); latencies in ms\n`);
    printTable(['call', 'clients', 'requests', 'failed', 'req/s', 'p50', 'p95', 'p99'], rows);
  } finally {
    client.stop();
    await service.stop(true);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await apiBench();
