import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PartMemory, sendInParts, type Chunk, type PartStreamOptions } from './partStream';

const PART = 64 * 1024;
let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ovu-partstream-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** The stream's bytes in pieces of `piece` bytes, failing with `cutWith` after `cutAfter` bytes. */
async function* pieces(bytes: Buffer, piece: number, cut?: { after: number; error: Error }): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += piece) {
    if (cut && at >= cut.after) throw cut.error;
    yield bytes.subarray(at, Math.min(bytes.byteLength, at + piece));
    await new Promise((wake) => setImmediate(wake));
  }
}

/** Reads each chunk's body whole, as UploadPart would, and notes where its bytes were kept meanwhile. */
function collector() {
  const received: { index: number; start: number; bytes: Buffer; files: number }[] = [];
  const send = async (chunk: Chunk) => {
    const parts: Buffer[] = [];
    for await (const bytes of chunk.body()) parts.push(Buffer.from(bytes as Uint8Array));
    const files = readdirSync(directory).length;
    received.push({ index: chunk.index, start: chunk.start, bytes: Buffer.concat(parts), files });
    return chunk.index;
  };
  return { received, send };
}

function options(memoryBytes: number, extra: Partial<PartStreamOptions> = {}): PartStreamOptions {
  return { partBytes: PART, concurrency: 2, directory, memory: new PartMemory(memoryBytes), ...extra };
}

describe.each([
  { backing: 'part buffers', memoryBytes: 8 * PART, files: false },
  { backing: 'temporary files (S3_PART_MEMORY_BYTES 0)', memoryBytes: 0, files: true },
])('sendInParts with $backing', ({ memoryBytes, files }) => {
  it.each([{ declared: true }, { declared: false }])(
    'cuts the stream into parts of partBytes, each the stream’s own bytes, declared length $declared',
    async ({ declared }) => {
      const bytes = randomBytes(3 * PART + 1000);
      const { received, send } = collector();
      const results = await sendInParts(pieces(bytes, 10_000), options(memoryBytes, declared ? { length: bytes.byteLength } : {}), send);
      expect(results).toEqual([0, 1, 2, 3]);
      received.sort((a, b) => a.index - b.index);
      expect(received.map((chunk) => chunk.start)).toEqual([0, PART, 2 * PART, 3 * PART]);
      expect(Buffer.concat(received.map((chunk) => chunk.bytes)).equals(bytes)).toBe(true);
      expect(received.some((chunk) => chunk.files > 0)).toBe(files);
      expect(readdirSync(directory)).toEqual([]);
    },
  );

  it('keeps the bytes that arrived before a cut as a short last chunk', async () => {
    const bytes = randomBytes(2 * PART);
    const { received, send } = collector();
    const cut = { after: PART + 30_000, error: new Error('client went away') };
    const arrived = Math.ceil(cut.after / 10_000) * 10_000;
    const results = await sendInParts(pieces(bytes, 10_000, cut), options(memoryBytes, { length: bytes.byteLength }), send);
    // The streamed second part failed with its body; the bytes of it that arrived come again, short.
    expect(results).toEqual([0, 1]);
    const kept = received.filter((chunk) => chunk.index === 1);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.bytes.equals(bytes.subarray(PART, arrived))).toBe(true);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('stops at a failed send and throws its error, leaving no chunk behind', async () => {
    const bytes = randomBytes(4 * PART);
    const memory = new PartMemory(memoryBytes);
    const refused = new Error('the bucket refused the part');
    const send = async (chunk: Chunk) => {
      // Read whole, as UploadPart would, before the bucket answers.
      await chunk.body().toArray();
      if (chunk.index === 1) throw refused;
      return chunk.index;
    };
    const source = Readable.from(pieces(bytes, 10_000));
    await expect(sendInParts(source, { ...options(memoryBytes), memory, length: bytes.byteLength }, send)).rejects.toBe(refused);
    expect(source.destroyed).toBe(true);
    expect(readdirSync(directory)).toEqual([]);
    // Every buffer is back: the whole limit can be lent again.
    for (let lent = 0; lent + PART <= memoryBytes; lent += PART) expect(memory.take(PART)).toBeDefined();
  });
});

describe('PartMemory', () => {
  it('reuses given buffers and lends no more than its limit', () => {
    const memory = new PartMemory(2 * PART);
    const first = memory.take(PART)!;
    const second = memory.take(PART)!;
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(memory.take(PART)).toBeUndefined();
    memory.give(first);
    expect(memory.take(PART)).toBe(first);
    // A free buffer of another size makes way for a larger one.
    memory.give(second);
    expect(memory.take(2 * PART)).toBeUndefined();
    memory.give(first);
    expect(memory.take(2 * PART)?.byteLength).toBe(2 * PART);
  });

  it('a stream whose parts find the memory full sends the rest from files, and gives every buffer back', async () => {
    const bytes = randomBytes(4 * PART);
    const { received, send } = collector();
    const memory = new PartMemory(PART);
    await sendInParts(Readable.from(pieces(bytes, 10_000)), { partBytes: PART, concurrency: 2, directory, memory }, send);
    expect(Buffer.concat(received.sort((a, b) => a.index - b.index).map((chunk) => chunk.bytes)).equals(bytes)).toBe(true);
    expect(received.some((chunk) => chunk.files > 0)).toBe(true);
    expect(memory.take(PART)).toBeDefined();
    expect(readdirSync(directory)).toEqual([]);
  });
});
