import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openUploader, registerVideo, resultCode, sha256, tusCreate, tusHead, tusPatch, type TusReply } from '../test/uploadHelpers';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import type { ServiceProcessOptions } from '../test/support/serviceProcess';
import { startFaultyProxy, type FaultyProxy } from './support/faultyProxy';

const MIB = 1024 * 1024;
const homes: ReturnType<typeof serviceHome>[] = [];
let service: CrashableService | undefined;
let proxy: FaultyProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await stopCrashable(service);
  proxy = undefined;
  service = undefined;
});
afterAll(() => {
  for (const home of homes) home.remove();
});

const portOf = (address: string) => Number(new URL(address).port);

/** Every reply the client got; none may be a 5xx. */
const replies: TusReply[] = [];
function seen(reply: TusReply): TusReply {
  replies.push(reply);
  return reply;
}

/** What tus-js-client does after a broken request: ask for the offset, send the rest; a 409/423 means the service is still settling the broken one. */
async function resume(origin: string, path: string, ticket: string, bytes: Uint8Array): Promise<TusReply> {
  for (let attempt = 0; ; attempt++) {
    const offset = Number(seen(await tusHead(origin + path, ticket)).headers.get('upload-offset'));
    const reply = seen(await tusPatch(origin + path, ticket, offset, bytes.subarray(offset)));
    if ((reply.status !== 409 && reply.status !== 423) || attempt === 5) return reply;
    await new Promise((wake) => setTimeout(wake, 200));
  }
}

/** A fresh service behind the proxy, and a video with an unfinished upload of 8 MiB of random bytes. */
async function begin(options: ServiceProcessOptions = {}) {
  const home = serviceHome();
  homes.push(home);
  const first = await startCrashable(home, {}, options);
  service = first;
  const via = await startFaultyProxy(portOf(first.address));
  proxy = via;
  const bytes = randomBytes(8 * MIB);
  const videoId = await registerVideo(first);
  const boot = await openUploader(first, videoId);
  const created = seen(await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length));
  expect(created.status).toBe(201);
  return { home, bytes, videoId, ticket: boot.ticket, path: new URL(created.headers.get('location')!).pathname, via, first };
}

/** The stored source is `bytes`, the store holds nothing else, and no reply but `expected` was a 5xx. */
function expectStoredIntact(home: { dataDir: string }, videoId: string, path: string, bytes: Uint8Array, expected: TusReply[] = []): void {
  const stored = readFileSync(join(home.dataDir, 'media', videoId, 'source.mp4'));
  expect(sha256(stored)).toBe(sha256(bytes));
  const id = path.split('/').pop()!;
  // The store holds the finished upload's own files and nothing else.
  expect(readdirSync(join(home.dataDir, 'uploads')).sort()).toEqual([id, `${id}.json`]);
  expect(replies.filter((reply) => reply.status >= 500 && !expected.includes(reply))).toEqual([]);
  expect(service!.process.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
}

describe('an upload through a faulty connection', () => {
  it('reset mid-PATCH: resumes from the offset the service kept and stores the file byte-identical', async () => {
    const { home, bytes, videoId, ticket, path, via, first } = await begin();

    via.fault = { breakAfterBytes: 3 * MIB, how: 'reset' };
    await expect(tusPatch(via.origin + path, ticket, 0, bytes)).rejects.toThrow();
    via.fault = {};
    const offset = Number((await tusHead(first.address + path, ticket)).headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(3 * MIB);

    expect((await resume(via.origin, path, ticket, bytes)).status).toBe(204);
    expectStoredIntact(home, videoId, path, bytes);
  });

  it('service killed with SIGKILL mid-PATCH: the next run takes the rest and stores the file byte-identical', async () => {
    const { home, bytes, videoId, ticket, path, via, first } = await begin();

    via.fault = { bytesPerSecond: 2 * MIB };
    const cut = tusPatch(via.origin + path, ticket, 0, bytes).catch((error: unknown) => error);
    await new Promise((wake) => setTimeout(wake, 1500));
    first.process.stop('SIGKILL');
    await first.process.exit;
    await cut;

    const second = await startCrashable(home);
    service = second;
    via.retarget(portOf(second.address));
    via.fault = {};
    const offset = Number((await tusHead(second.address + path, ticket)).headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(bytes.length);

    expect((await resume(via.origin, path, ticket, bytes)).status).toBe(204);
    expectStoredIntact(home, videoId, path, bytes);
  });

  it('disk full mid-PATCH: refused with 507 / 113, the bytes before it kept, and resumed byte-identical once there is room', async () => {
    // The file size limit of the service process stands in for a full disk (EFBIG, like ENOSPC):
    // no size-limited file system can be mounted here without root.
    const room = 3 * MIB;
    const { home, bytes, videoId, ticket, path, via, first } = await begin({ fileSizeLimitBytes: room });

    let refused: TusReply | undefined;
    for (let offset = 0; offset < bytes.length && !refused; offset += MIB) {
      const reply = seen(await tusPatch(via.origin + path, ticket, offset, bytes.subarray(offset, offset + MIB)));
      if (reply.status !== 204) refused = reply;
    }
    expect(refused?.status).toBe(507);
    expect(resultCode(refused!.body)).toBe('113');
    expect(first.process.lines.some((line) => line.includes('storage outage: no space left in DATA_DIR'))).toBe(true);
    expect(Number(seen(await tusHead(first.address + path, ticket)).headers.get('upload-offset'))).toBe(room);

    // Room again: the service restarted without the limit takes the rest.
    first.process.stop();
    await first.process.exit;
    const second = await startCrashable(home);
    service = second;
    via.retarget(portOf(second.address));
    expect((await resume(via.origin, path, ticket, bytes)).status).toBe(204);
    expectStoredIntact(home, videoId, path, bytes, [refused!]);
  });
});
