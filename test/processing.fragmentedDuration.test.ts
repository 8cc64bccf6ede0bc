import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFragmentIndex, type FragmentIndex } from '../src/server/media/fragmentIndex';
import { writeFragmentedDuration } from '../src/server/processing/fragmentedDuration';
import { chooseRenditions, transcodeArgs } from '../src/server/processing/renditions';

/**
 * A rung states its whole length in its moov (a `mehd`), so a player that reads only the head
 * (Firefox) knows it before the fragments: made by the service's own ffmpeg arguments (B-frames,
 * AAC, fragments every 2 s), then checked with ffprobe and the HLS index read from the file.
 */

const run = promisify(execFile);
const SECONDS = 7;

let work: string;
let made: string;

/** Every packet ffprobe reads, and where the last one of each stream (0: video, 1: audio) and of all ends. */
async function packets(file: string): Promise<{ list: string; end: number; ends: number[] }> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-show_entries', 'packet=stream_index,pts_time,duration_time,size,flags', '-of', 'csv=p=0', file],
  ]);
  const ends: number[] = [];
  for (const [stream, pts, duration] of stdout
    .trim()
    .split('\n')
    .map((line) => line.split(',').map(Number))) {
    // The AAC priming's packet, cut by the edit list, has no duration.
    ends[stream!] = Math.max(ends[stream!] ?? 0, pts! + (Number.isFinite(duration) ? duration! : 0));
  }
  return { list: stdout, end: Math.max(...ends), ends };
}

/** The file's top-level boxes' types and offsets, and its mehd's duration in seconds (undefined without one). */
function layout(file: string): { boxes: Map<number, string>; stated?: number } {
  const data = readFileSync(file);
  const boxes = new Map<number, string>();
  let stated: number | undefined;
  for (let at = 0; at + 8 <= data.length; at += data.readUInt32BE(at)) {
    const type = data.toString('latin1', at + 4, at + 8);
    boxes.set(at, type);
    if (type !== 'moov') continue;
    const movieScale = data.readUInt32BE(data.indexOf('mvhd', at, 'latin1') + 16);
    const mehd = data.indexOf('mehd', at, 'latin1');
    if (mehd > 0 && mehd < at + data.readUInt32BE(at)) stated = Number(data.readBigUInt64BE(mehd + 8)) / movieScale;
  }
  return { boxes, stated };
}

/** Each moof offset the mfra at the end names. */
function mfraOffsets(file: string): number[] {
  const data = readFileSync(file);
  const mfra = data.length - data.readUInt32BE(data.length - 4);
  const offsets: number[] = [];
  for (let at = mfra + 8; data.toString('latin1', at + 4, at + 8) === 'tfra'; at += data.readUInt32BE(at)) {
    // Version 1, with one-byte traf, trun and sample numbers: 19 bytes an entry.
    for (let index = 0; index < data.readUInt32BE(at + 20); index++) offsets.push(Number(data.readBigUInt64BE(at + 24 + index * 19 + 8)));
  }
  return offsets;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-fragmented-duration-'));
  const source = join(work, 'source.mp4');
  await run('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=30:duration=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source],
  ]);
  const rendition = chooseRenditions(640, 360).at(-1)!;
  made = join(work, 'made.mp4');
  // superfast, the default preset: B-frames, so the video track has an edit list too.
  await run('ffmpeg', transcodeArgs(source, [{ rendition, path: made }], 2, 8192 * 4320, { preset: 'superfast' }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('writeFragmentedDuration on a rung ffmpeg made', () => {
  it('states the whole length in the moov; ffprobe reads the same packets, and HLS byte ranges still land on fragments', async () => {
    const rung = join(work, 'rung.mp4');
    copyFileSync(made, rung);
    const before = await packets(rung);
    // ffmpeg states no length: the failure Firefox shows.
    expect(layout(rung).stated).toBeUndefined();

    expect(await writeFragmentedDuration(rung)).toBe(true);

    const after = await packets(rung);
    expect(after.list).toBe(before.list);
    expect(before.end).toBeGreaterThan(SECONDS - 0.05);
    const { boxes, stated } = layout(rung);
    expect(Math.abs(stated! - before.end)).toBeLessThanOrEqual(0.001);
    // Every fragment the media playlist names, and every one the mfra names, starts with a moof.
    const index = readFragmentIndex(readFileSync(rung)) as FragmentIndex;
    expect(index.fragments.length).toBeGreaterThanOrEqual(Math.floor(SECONDS / 2));
    for (const fragment of index.fragments) expect(boxes.get(fragment.offset), `byte ${fragment.offset}`).toBe('moof');
    for (const offset of mfraOffsets(rung)) expect(boxes.get(offset), `mfra's ${offset}`).toBe('moof');
    // The whole file decodes without an error.
    const { stderr } = await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', rung, '-f', 'null', '-']);
    expect(stderr).toBe('');
  });

  it("ends the rung's picture and sound with the source's, within a frame", async () => {
    const { ends } = await packets(made);
    expect(ends).toHaveLength(2);
    // The sound may run on by the AAC encoder's padding, less than a frame.
    for (const end of ends) expect(Math.abs(end - SECONDS)).toBeLessThanOrEqual(1 / 30);
  });

  it('sets a mehd the file already has in place, the file keeping its size', async () => {
    const rung = join(work, 'twice.mp4');
    copyFileSync(made, rung);
    await writeFragmentedDuration(rung);
    const right = readFileSync(rung);
    const size = statSync(rung).size;
    const wrong = Buffer.from(right);
    // The first fragment's length, as some muxers state it.
    wrong.writeBigUInt64BE(2000n, wrong.indexOf('mehd', 0, 'latin1') + 8);
    writeFileSync(rung, wrong);

    expect(await writeFragmentedDuration(rung)).toBe(true);
    expect(statSync(rung).size).toBe(size);
    expect(readFileSync(rung).equals(right)).toBe(true);
  });

  it('leaves a file that is not a fragmented rung as it was', async () => {
    const plain = join(work, 'plain.mp4');
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', made, '-c', 'copy', '-movflags', '+faststart', plain]);
    const bytes = readFileSync(plain);
    expect(await writeFragmentedDuration(plain)).toBe(false);
    expect(readFileSync(plain).equals(bytes)).toBe(true);
  });
});
