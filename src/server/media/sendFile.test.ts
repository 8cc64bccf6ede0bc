import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFile } from './sendFile';

let dir: string;
let server: Server;
let url: string;
const MODIFIED = new Date('2026-01-02T03:04:05Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ovu-send-'));
  const file = join(dir, 'clip.mp4');
  writeFileSync(file, Buffer.alloc(2000, 7));
  utimesSync(file, MODIFIED, MODIFIED);
  server = createServer((req, res) => void sendFile(req, res, file, 'video/mp4'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/clip.mp4`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

describe('sendFile preconditions (RFC 9110 §13.2.2)', () => {
  it('answers 412 to an If-Match that names another tag, or only a weak one, before any range', async () => {
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    for (const ifMatch of ['"other"', `W/${etag}`, '"a", "b"']) {
      const reply = await fetch(url, { headers: { 'If-Match': ifMatch, Range: 'bytes=0-9' } });
      expect(reply.status, ifMatch).toBe(412);
    }
    for (const ifMatch of [etag, `"x", ${etag}`, '*']) {
      const reply = await fetch(url, { headers: { 'If-Match': ifMatch, Range: 'bytes=0-9' } });
      expect(reply.status, ifMatch).toBe(206);
    }
  });

  it('answers 412 when the file changed after If-Unmodified-Since, and lets If-Match decide when both come', async () => {
    const before = new Date(MODIFIED.getTime() - 60_000).toUTCString();
    expect((await fetch(url, { headers: { 'If-Unmodified-Since': before } })).status).toBe(412);
    expect((await fetch(url, { headers: { 'If-Unmodified-Since': MODIFIED.toUTCString() } })).status).toBe(200);
    expect((await fetch(url, { headers: { 'If-Unmodified-Since': 'not a date' } })).status).toBe(200);
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    expect((await fetch(url, { headers: { 'If-Match': etag, 'If-Unmodified-Since': before } })).status).toBe(200);
  });

  it('checks If-Match before If-None-Match: a failed one is 412, not 304', async () => {
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    expect((await fetch(url, { headers: { 'If-Match': '"other"', 'If-None-Match': etag } })).status).toBe(412);
    expect((await fetch(url, { headers: { 'If-Match': etag, 'If-None-Match': etag } })).status).toBe(304);
  });
});
