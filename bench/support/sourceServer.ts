/**
 * A source server for the download bench, run in its own process so that neither its CPU nor its
 * memory counts against the service: `GET /sized/<bytes>` answers with a Content-Length,
 * `GET /chunked/<bytes>` without one. The bytes are one random MiB repeated, sent as fast as
 * the reader takes them. Sends its port over IPC once listening; ends when the parent disconnects.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { MIB } from './table';

const block = randomBytes(MIB);

function* bytes(total: number): Generator<Buffer> {
  for (let sent = 0; sent < total; sent += MIB) yield total - sent >= MIB ? block : block.subarray(0, total - sent);
}

const server = createServer((req, res) => {
  const match = /^\/(sized|chunked)\/(\d+)$/.exec(req.url ?? '');
  if (!match) return void res.writeHead(404).end();
  const total = Number(match[2]);
  res.writeHead(200, { 'content-type': 'video/mp4', ...(match[1] === 'sized' ? { 'content-length': total } : {}) });
  Readable.from(bytes(total)).pipe(res);
});

server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
process.on('disconnect', () => server.close());
