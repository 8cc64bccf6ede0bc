import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetVideoReply } from '../src/shared/apiReplies';
import { chooseRenditions, transcodeArgs } from '../src/server/processing/renditions';
import { waitForLadder } from './support/ladder';
import { getVideoReply, processSource } from './support/processSource';
import { startTestService, type TestService } from './support/service';

/**
 * Every rung starts its picture and its sound at 0, on the source's clock, played whole and
 * through HLS: fragmented, B-frames' decoding delay would otherwise start the picture two frames
 * late with no edit list to take it back. Measured with ffprobe and ffmpeg's SSIM over HTTP from
 * a real service; the clip is grainy (every frame differs), so a picture shown two frames off
 * scores visibly lower than it should.
 */

const run = promisify(execFile);
const LADDER_TIMEOUT_MS = 240_000;
const FPS = 30;
const ONE_FRAME = 1 / FPS;
/** The rule: the ladder's top rung within this of a standalone encode with the same settings. */
const SSIM_SLACK = 0.01;

let work: string;
let service: TestService;
let source: string;
let done: GetVideoReply;

async function ffprobe(target: string, ...args: string[]): Promise<string> {
  return (await run('ffprobe', ['-v', 'error', ...args, target])).stdout;
}

/** Each stream's start_time and its first packet's pts, by kind. */
async function starts(target: string): Promise<Record<'video' | 'audio', { start: number; firstPts: number }>> {
  const of = async (kind: 'v' | 'a') => {
    const [stream] = (
      JSON.parse(await ffprobe(target, '-select_streams', `${kind}:0`, '-show_entries', 'stream=start_time', '-of', 'json')) as {
        streams: { start_time: string }[];
      }
    ).streams;
    const [packet] = (
      JSON.parse(
        await ffprobe(target, '-select_streams', `${kind}:0`, '-read_intervals', '%+#1', '-show_entries', 'packet=pts_time', '-of', 'json'),
      ) as { packets: { pts_time: string }[] }
    ).packets;
    return { start: Number(stream!.start_time), firstPts: Number(packet!.pts_time) };
  };
  return { video: await of('v'), audio: await of('a') };
}

/** SSIM of `rung` against the source scaled to its size, frame by frame in time (ffmpeg's framesync). */
async function ssim(rung: string, width: number, height: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-i', rung, '-i', source],
    ...['-lavfi', `[1:v]scale=${width}:${height},setsar=1[ref];[0:v][ref]ssim`, '-f', 'null', '-'],
  ]);
  return Number(/All:([\d.]+)/.exec(stderr)![1]);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-rung-start-'));
  service = await startTestService();
  source = join(work, 'grainy.mp4');
  await run('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=${FPS}:duration=4,noise=alls=12:allf=t`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source],
  ]);
  const { videoId } = await processSource(service, source, { timeoutMs: LADDER_TIMEOUT_MS });
  await waitForLadder(service.db, videoId);
  done = await getVideoReply(service, videoId);
}, LADDER_TIMEOUT_MS);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

describe('the rungs of a grainy 720p source with sound', { timeout: LADDER_TIMEOUT_MS }, () => {
  it('start picture and sound at 0, within a frame of each other, played whole and through HLS', async () => {
    expect(done.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['720P', '480P', '360P']);
    for (const file of done.VideoPlayFile) {
      for (const target of [file.VideoURL, file.VideoURL.replace(/\.mp4$/, '.m3u8')]) {
        const { video, audio } = await starts(target);
        for (const [what, value] of Object.entries({ video: video.start, audio: audio.start, firstVideoPts: video.firstPts })) {
          expect(Math.abs(value), `${target} ${what}`).toBeLessThanOrEqual(ONE_FRAME);
        }
        expect(Math.abs(video.start - audio.start), `${target} A/V`).toBeLessThanOrEqual(ONE_FRAME);
      }
    }
  });

  it('scores the top rung within 0.01 SSIM of a standalone encode with the same settings', async () => {
    const [top] = chooseRenditions(1280, 720);
    const rung = join(work, 'ladder-720p.mp4');
    writeFileSync(rung, Buffer.from(await (await fetch(done.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    // The service's own arguments for that one rung, written as a plain faststart MP4.
    const standalone = join(work, 'standalone-720p.mp4');
    const { maxSourcePixels, x264Preset } = service.context.config;
    const args = transcodeArgs(source, [{ rendition: top!, path: standalone }], 2, maxSourcePixels, { preset: x264Preset });
    await run(
      'ffmpeg',
      args.map((arg) => (arg.startsWith('+frag_keyframe') ? '+faststart' : arg)),
    );
    const [ladder, alone] = [await ssim(rung, top!.width, top!.height), await ssim(standalone, top!.width, top!.height)];
    expect(ladder).toBeGreaterThanOrEqual(alone - SSIM_SLACK);
  });
});
