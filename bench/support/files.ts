import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIB } from './table';

/**
 * `mebibytes` of incompressible bytes, written one random MiB at a time (repeated), so making a
 * 256 MiB file takes neither 256 MiB of memory nor 256 MiB of entropy.
 */
export async function makeRandomFile(dir: string, name: string, mebibytes: number): Promise<string> {
  const path = join(dir, name);
  const block = randomBytes(MIB);
  await pipeline(Readable.from(repeat(block, mebibytes)), createWriteStream(path));
  return path;
}

function* repeat(block: Buffer, times: number): Generator<Buffer> {
  for (let index = 0; index < times; index++) yield block;
}
