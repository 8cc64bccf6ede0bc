import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publicAddressesOnly } from '../src/server/net/addressPolicy';
import type { Resolver } from '../src/server/net/vettedHost';
import { downloadSource, isDownloadError, type DownloadError, type DownloadOptions } from '../src/server/processing/download';
import { type Video } from '../src/server/storage/videos';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from './support/service';
import { newVideo } from './support/videos';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A source server on 127.0.0.1 that records every connection and request it sees. */
interface SourceServer {
  origin: string;
  port: number;
  connections: number;
  requests: { url: string; host: string | undefined }[];
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

async function startSourceServer(): Promise<SourceServer> {
  const routes = new Map<string, Handler>();
  const state = { connections: 0, requests: [] as SourceServer['requests'] };
  const server: Server = createServer((req, res) => {
    state.requests.push({ url: req.url ?? '', host: req.headers.host });
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) handler(req, res);
    else res.writeHead(404).end('not here');
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let strict: TestService;
let permissive: TestService;
let source: SourceServer;
const clip = randomBytes(3 * 1024 * 1024 + 17);

beforeAll(async () => {
  strict = await startTestService();
  permissive = await startTestService({ env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
  source = await startSourceServer();
  source.route('/clip.mp4', (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip));
  source.route('/get', (_req, res) => res.writeHead(200, { 'content-type': 'video/webm' }).end(clip));
  source.route('/hops', (req, res) => {
    const left = Number(new URL(req.url!, 'http://x').searchParams.get('left'));
    if (left > 0) res.writeHead(302, { location: `/hops?left=${left - 1}` }).end();
    else res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip);
  });
});
afterAll(async () => {
  await source.close();
  await strict.stop(true);
  await permissive.stop(true);
});

let connectionsBefore = 0;
let requestsBefore = 0;
beforeEach(() => {
  connectionsBefore = source.connections;
  requestsBefore = source.requests.length;
});

async function typeTwoVideo(service: TestService, sourcePath: string): Promise<Video> {
  const video = newVideo({ title: 'downloaded', sourceGetType: 2, sourcePath, status: VideoStatus.WaitingForDownload });
  await service.context.stores.videos.insert(video);
  return (await service.context.stores.videos.get(video.id))!;
}

function mediaFiles(service: TestService, video: Video): string[] {
  const dir = join(service.dataDir, 'media', video.id);
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function failure(
  service: TestService,
  sourcePath: string,
  options: Partial<DownloadOptions> = {},
  signal = new AbortController().signal,
): Promise<{ error: DownloadError; video: Video }> {
  const video = await typeTwoVideo(service, sourcePath);
  const error = await downloadSource(service.context, video, signal, options).then(
    () => expect.unreachable(`${sourcePath} was downloaded`),
    (caught: unknown) => caught,
  );
  expect(isDownloadError(error)).toBe(true);
  // Whatever went wrong, nothing half-written stays behind.
  expect(mediaFiles(service, video)).toEqual([]);
  return { error: error as DownloadError, video };
}

/** Resolves names from a table, the way a public DNS answer that points inward would. */
function tableResolver(table: Record<string, string[]>, calls: string[] = []): Resolver {
  return async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('downloadSource: a reachable source', () => {
  it('stores the bytes exactly, named after the URL extension, with no temp file left', async () => {
    const video = await typeTwoVideo(permissive, `${source.origin}/clip.mp4`);
    const name = await downloadSource(permissive.context, video, new AbortController().signal);
    expect(name).toBe('source.mp4');
    expect(mediaFiles(permissive, video)).toEqual(['source.mp4']);
    expect(sha256(readFileSync(join(permissive.dataDir, 'media', video.id, name)))).toBe(sha256(clip));
  });

  it('takes the extension from the Content-Type when the URL has none', async () => {
    const video = await typeTwoVideo(permissive, `${source.origin}/get?id=9`);
    expect(await downloadSource(permissive.context, video, new AbortController().signal)).toBe('source.webm');
  });

  it('follows exactly 5 redirects', async () => {
    const video = await typeTwoVideo(permissive, `${source.origin}/hops?left=5`);
    const name = await downloadSource(permissive.context, video, new AbortController().signal);
    expect(sha256(readFileSync(join(permissive.dataDir, 'media', video.id, name)))).toBe(sha256(clip));
    expect(source.requests.length - requestsBefore).toBe(6);
  });

  it('connects to the address it vetted and keeps the hostname in the Host header', async () => {
    // `.test` never resolves in real DNS, so reaching the server proves the pinned address was used.
    const calls: string[] = [];
    const resolve = tableResolver({ 'media.example.test': ['127.0.0.1'] }, calls);
    const video = await typeTwoVideo(strict, `http://media.example.test:${source.port}/clip.mp4`);
    const name = await downloadSource(strict.context, video, new AbortController().signal, {
      resolve,
      addressPolicy: (address) => address === '127.0.0.1',
    });
    expect(name).toBe('source.mp4');
    expect(calls).toEqual(['media.example.test']);
    expect(source.requests.at(-1)?.host).toBe(`media.example.test:${source.port}`);
  });

  it('removes a temp file left by a download the process did not finish', async () => {
    const video = await typeTwoVideo(permissive, `${source.origin}/clip.mp4`);
    const dir = join(permissive.dataDir, 'media', video.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.source-0123456789abcdef.part'), 'half');
    await downloadSource(permissive.context, video, new AbortController().signal);
    expect(readdirSync(dir)).toEqual(['source.mp4']);
  });
});

describe('downloadSource: SSRF refusals with the default policy', () => {
  it.each([
    ['loopback', (port: number) => `http://127.0.0.1:${port}/clip.mp4`],
    ['localhost', (port: number) => `http://localhost:${port}/clip.mp4`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/clip.mp4`],
    ['IPv4-mapped IPv6 loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/clip.mp4`],
    ['decimal IPv4', (port: number) => `http://2130706433:${port}/clip.mp4`],
    ['hex IPv4', (port: number) => `http://0x7f.0.0.1:${port}/clip.mp4`],
    ['octal IPv4', (port: number) => `http://0177.0.0.01:${port}/clip.mp4`],
    ['short IPv4', (port: number) => `http://127.1:${port}/clip.mp4`],
    ['private 10/8', () => 'http://10.0.0.1/clip.mp4'],
    ['private 192.168/16', () => 'http://192.168.0.1/clip.mp4'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['unspecified', (port: number) => `http://0.0.0.0:${port}/clip.mp4`],
  ])('refuses %s before connecting', async (_label, url) => {
    const { error } = await failure(strict, url(source.port));
    expect(error.reason).toBe('private-address');
    expect(source.connections).toBe(connectionsBefore);
  });

  it('refuses a public-looking hostname when any of its addresses is loopback', async () => {
    const resolve = tableResolver({ 'cdn.example.com': ['93.184.216.34', '127.0.0.1'] });
    const { error } = await failure(strict, `http://cdn.example.com:${source.port}/clip.mp4`, { resolve });
    expect(error.reason).toBe('private-address');
    expect(error.message).not.toContain('127.0.0.1');
    expect(source.connections).toBe(connectionsBefore);
  });

  it('refuses a redirect from an allowed server to a private address, checked on the new hop', async () => {
    source.route('/to-private', (_req, res) => res.writeHead(302, { location: 'http://10.1.2.3/x.mp4' }).end());
    source.route('/to-metadata', (_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/' }).end());
    source.route('/to-loopback-name', (_req, res) =>
      res.writeHead(301, { location: `http://inside.example.test:${source.port}/clip.mp4` }).end(),
    );
    // Only the first hop's server is let through; every later hop meets the production policy.
    const options = {
      addressPolicy: (address: string) => address === '127.0.0.1' || publicAddressesOnly(address),
      resolve: tableResolver({ 'start.example.test': ['127.0.0.1'], 'inside.example.test': ['::1'] }),
    };
    for (const path of ['/to-private', '/to-metadata', '/to-loopback-name']) {
      const before = source.requests.length;
      const { error } = await failure(strict, `http://start.example.test:${source.port}${path}`, options);
      expect(error.reason).toBe('private-address');
      expect(source.requests.slice(before).map((r) => r.url)).toEqual([path]);
    }
  });
});

describe('downloadSource: limits and failures', () => {
  it('refuses a sixth redirect', async () => {
    const { error } = await failure(permissive, `${source.origin}/hops?left=6`);
    expect(error.reason).toBe('too-many-redirects');
    expect(source.requests.length - requestsBefore).toBe(6);
  });

  it('refuses a file whose Content-Length is over the limit without reading it', async () => {
    const { error } = await failure(permissive, `${source.origin}/clip.mp4`, { maxBytes: clip.length - 1 });
    expect(error.reason).toBe('too-large');
  });

  it('cuts a reply without Content-Length once it passes the limit', async () => {
    source.route('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write(randomBytes(64 * 1024)), 5);
      res.on('close', () => clearInterval(timer));
    });
    const { error } = await failure(permissive, `${source.origin}/endless`, { maxBytes: 1024 * 1024 });
    expect(error.reason).toBe('too-large');
  });

  it('gives up on a server that stops sending', async () => {
    source.route('/stall-headers', () => {});
    source.route('/stall-body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 1000 });
      res.write(Buffer.alloc(10));
    });
    for (const path of ['/stall-headers', '/stall-body']) {
      const { error } = await failure(permissive, `${source.origin}${path}`, { idleTimeoutMs: 200 });
      expect(error.reason).toBe('timeout');
    }
  });

  it('gives up when the whole download takes too long, even while bytes keep trickling', async () => {
    source.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const { error } = await failure(permissive, `${source.origin}/trickle`, { timeoutMs: 300, idleTimeoutMs: 5000 });
    expect(error.reason).toBe('timeout');
  });

  it('gives up on a source that trickles under the rate floor over a whole window (never silent long enough to be idle), naming rate and window, and keeps one above it', async () => {
    source.route('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const { error } = await failure(permissive, `${source.origin}/drip`, { minBytesPerS: 1000, rateWindowMs: 300, idleTimeoutMs: 5000 });
    expect(error.reason).toBe('too-slow');
    expect(error.message).toMatch(/^too-slow: \d+ bytes in the last 300 ms, under the floor of 1000 bytes\/s$/);

    const part = clip.subarray(0, 2000);
    source.route('/steady', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(part);
        if (++sent === 40) {
          clearInterval(timer);
          res.end();
        }
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
    const video = await typeTwoVideo(permissive, `${source.origin}/steady`);
    // About 100 000 bytes/s against the same floor, over windows of 200 ms for about 800 ms.
    const name = await downloadSource(permissive.context, video, new AbortController().signal, { minBytesPerS: 1000, rateWindowMs: 200 });
    expect(readFileSync(join(permissive.dataDir, 'media', video.id, name)).length).toBe(40 * 2000);
  });

  it('fails on an HTTP error status and names it', async () => {
    const { error } = await failure(permissive, `${source.origin}/missing.mp4`);
    expect(error.reason).toBe('http-status');
    expect(error.message).toBe('http-status: HTTP 404');
  });

  it('fails when the server closes the connection before the announced length', async () => {
    source.route('/cut', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 100_000 });
      res.write(Buffer.alloc(1000), () => res.destroy());
    });
    const { error } = await failure(permissive, `${source.origin}/cut`);
    expect(error.reason).toBe('network');
  });

  it.each([['ftp://127.0.0.1/clip.mp4'], ['file:///etc/passwd'], ['not a url'], ['http://user:pass@127.0.0.1/clip.mp4']])(
    'refuses %s as a bad URL',
    async (url) => {
      const { error } = await failure(permissive, url);
      expect(error.reason).toBe('bad-url');
    },
  );

  it('reports a name that does not resolve', async () => {
    const { error } = await failure(strict, 'http://nowhere.example.test/clip.mp4', { resolve: tableResolver({}) });
    expect(error.reason).toBe('unresolvable');
  });

  it('stops when the caller aborts, leaving no partial file', async () => {
    const controller = new AbortController();
    source.route('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(Buffer.alloc(1000), () => controller.abort());
    });
    const { error } = await failure(permissive, `${source.origin}/slow`, {}, controller.signal);
    expect(error.reason).toBe('aborted');
  });
});
