import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/server/config';
import { markSourceStored } from '../src/server/processing/pipeline';
import { describeMedia, PictureTooLargeError } from '../src/server/processing/probe';
import { type Video } from '../src/server/storage/videos';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from './support/service';
import { placeMedia, storedMedia, storedMediaNames } from './support/storage';
import { registerVideo } from './uploadHelpers';

const run = promisify(execFile);

let work: string;
let service: TestService;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-hostile-'));
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

/** What a finished upload does: the file becomes the video's source and the video waits for transcoding. */
async function processFile(target: TestService, file: string): Promise<Video> {
  const videoId = await registerVideo(target);
  await placeMedia(target, videoId, 'source.mkv', file);
  expect(await markSourceStored(target.context, videoId, 'source.mkv')).toBe(true);
  for (;;) {
    const video = (await target.context.stores.videos.get(videoId))!;
    if (video.status === VideoStatus.Normal || video.status === VideoStatus.TranscodingFailed) return video;
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

async function testVideo(name: string, size: string): Promise<string> {
  const file = join(work, name);
  await run('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${size}:rate=15:duration=1`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

async function frameCount(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

describe('hostile media', () => {
  it('a tiny file declaring ten hours between its frames is transcoded without inventing frames', async () => {
    // Three frames of a 60 fps stream, the last stamped 10 hours in: about 10 KB on disk.
    const file = join(work, 'ten-hours.mkv');
    await run('ffmpeg', [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=60',
      '-frames:v',
      '3',
      '-vf',
      "setpts='if(gte(N,2),36000/TB,PTS)'",
      '-vsync',
      'passthrough',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      file,
    ]);
    const video = await processFile(service, file);
    expect(video.status).toBe(VideoStatus.Normal);
    expect(video.duration).toBeGreaterThan(35_999);
    const renditions = await service.context.stores.playFiles.forVideo(video.id);
    expect(renditions.map((play) => play.file)).toEqual(['240p.mp4']);
    const played = join(work, 'ten-hours-240p.mp4');
    writeFileSync(played, (await storedMedia(service, video.id, '240p.mp4'))!);
    expect(await frameCount(played)).toBe(3);
  }, 60_000);

  describe('a picture over MAX_SOURCE_PIXELS', () => {
    let limited: TestService;
    beforeAll(async () => {
      limited = await startTestService({ config: { maxSourcePixels: 320 * 240 - 1 } });
    });
    afterAll(async () => {
      await limited?.stop(true);
    });

    it.each([
      [
        'just over it, named with its size',
        '320x240',
        'the picture is 320x240 (76800 pixels), over the limit of 76799 pixels (MAX_SOURCE_PIXELS)',
      ],
      [
        'far over it, refused by the decoder before a frame is made',
        '1280x720',
        'the picture is over the limit of 76799 pixels (MAX_SOURCE_PIXELS)',
      ],
    ])(
      '%s: ends in status 7 with the limit as the reason, and nothing is published',
      async (_name, size, reason) => {
        const video = await processFile(limited, await testVideo(`over-${size}.mkv`, size));
        expect(video.status).toBe(VideoStatus.TranscodingFailed);
        expect(video.statusReason).toBe(reason);
        expect(await limited.context.stores.playFiles.forVideo(video.id)).toEqual([]);
        expect(await storedMediaNames(limited, video.id)).toEqual(['source.mkv']);
      },
      30_000,
    );

    it('a picture within the limit is processed as usual', async () => {
      const video = await processFile(limited, await testVideo('within.mkv', '318x240'));
      expect(video.status).toBe(VideoStatus.Normal);
    }, 30_000);
  });

  it('a transcode still running after TRANSCODE_TIMEOUT_MS is stopped and ends in status 7 naming the limit', async () => {
    const hurried = await startTestService({ config: { transcodeTimeoutMs: 1 } });
    try {
      const video = await processFile(hurried, await testVideo('any.mkv', '320x240'));
      expect(video.status).toBe(VideoStatus.TranscodingFailed);
      expect(video.statusReason).toBe('transcoding took longer than TRANSCODE_TIMEOUT_MS (1 ms)');
      expect(await hurried.context.stores.playFiles.forVideo(video.id)).toEqual([]);
    } finally {
      await hurried.stop(true);
    }
  }, 30_000);

  it('the default limit takes 8K and refuses what one decoded frame could not hold in memory', () => {
    const { maxSourcePixels } = readConfig({});
    const probed = (width: number, height: number) =>
      JSON.stringify({ streams: [{ codec_type: 'video', width, height }], format: { duration: '2' } });
    expect(describeMedia(probed(8192, 4320), maxSourcePixels).displayWidth).toBe(8192);
    expect(describeMedia(probed(4320, 7680), maxSourcePixels).displayHeight).toBe(7680);
    expect(() => describeMedia(probed(46_340, 46_340), maxSourcePixels)).toThrow(PictureTooLargeError);
    expect(() => describeMedia(probed(16_384, 16_384), maxSourcePixels)).toThrow('16384x16384 (268435456 pixels)');
  });
});
