import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Container } from '../src/shared/widgetConfig';
import { containerNameOf } from '../src/widget/uploader/limits';
import { SIGNATURE_BYTES, sniffContainerFamily, containerFamilyOf, type ContainerFamily } from '../src/widget/uploader/videoSignature';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'signature-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One second of a tiny picture, written by ffmpeg in the container the file name asks for. */
async function made(name: string, extra: string[] = []): Promise<Uint8Array> {
  const file = join(dir, name);
  await run('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48:rate=5:duration=1',
    ...extra,
    file,
  ]);
  return new Uint8Array(readFileSync(file));
}

describe('containerFamilyOf, on files ffmpeg writes', () => {
  it.each<[string, ContainerFamily, string[]]>([
    ['a.mp4', 'mp4', []],
    ['a.mov', 'mp4', []],
    ['a.m4v', 'mp4', []],
    ['a.3gp', 'mp4', ['-s', '176x144']],
    ['a.mkv', 'matroska', []],
    ['a.webm', 'matroska', ['-c:v', 'libvpx', '-deadline', 'realtime']],
    ['a.avi', 'avi', []],
    ['a.ts', 'mpeg-ts', []],
    ['a.m2ts', 'mpeg-ts', ['-f', 'mpegts', '-mpegts_m2ts_mode', '1']],
    ['a.flv', 'flv', []],
    ['a.wmv', 'asf', []],
    ['a.mpg', 'mpeg-ps', ['-r', '25']],
    ['a.vob', 'mpeg-ps', ['-target', 'pal-dvd']],
    ['a.ogv', 'ogg', []],
    ['a.mxf', 'mxf', ['-c:v', 'mpeg2video', '-s', '720x576', '-r', '25']],
    ['a.dv', 'dv', ['-target', 'pal-dv']],
  ])('%s is %s', async (name, container, extra) => {
    const bytes = await made(name, extra);
    expect(containerFamilyOf(bytes.subarray(0, SIGNATURE_BYTES))).toBe(container);
  });
});

describe('containerNameOf, on files ffmpeg writes: the names the `accept` option takes', () => {
  it.each<[string, Container, string[]]>([
    ['a.mp4', 'mp4', []],
    ['a.mov', 'mov', []],
    ['a.m4v', 'm4v', []],
    ['a.3gp', '3gp', ['-s', '176x144']],
    ['a.f4v', 'mp4', ['-f', 'f4v']],
    ['a.mkv', 'mkv', []],
    ['a.webm', 'webm', ['-c:v', 'libvpx', '-deadline', 'realtime']],
    ['a.avi', 'avi', []],
    ['a.ts', 'ts', []],
    ['a.flv', 'flv', []],
    ['a.wmv', 'wmv', []],
    ['a.mpg', 'mpeg', ['-r', '25']],
    ['a.ogv', 'ogg', []],
    ['a.mxf', 'mxf', ['-c:v', 'mpeg2video', '-s', '720x576', '-r', '25']],
    ['a.dv', 'dv', ['-target', 'pal-dv']],
    // The content decides, not the name: QuickTime in a .mp4 is MOV, WebM in a .mkv is WebM.
    ['qt.mp4', 'mov', ['-f', 'mov']],
    ['webm.mkv', 'webm', ['-f', 'webm', '-c:v', 'libvpx', '-deadline', 'realtime']],
  ])('%s is %s', async (name, container, extra) => {
    const bytes = await made(`named-${name}`, extra);
    expect(containerNameOf(bytes.subarray(0, SIGNATURE_BYTES))).toBe(container);
  });
});

describe('containerFamilyOf, on what is not a video', () => {
  it.each([
    ['plain text', new TextEncoder().encode('hello, this is a text file renamed to fake.mp4\n'.repeat(30))],
    ['a PNG picture', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['a PDF', new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n')],
    ['a WAV sound (RIFF but not AVI)', new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt ')],
    ['zeros', new Uint8Array(SIGNATURE_BYTES)],
    ['a too-short head', Uint8Array.from([0x1a, 0x45])],
  ])('%s is none', (_name, head) => {
    expect(containerFamilyOf(head)).toBeNull();
  });

  it('reads only the head of a Blob', async () => {
    const head = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3]);
    const blob = new Blob([head, new Uint8Array(5 * SIGNATURE_BYTES)]);
    expect(await sniffContainerFamily(blob)).toBe('matroska');
  });
});
