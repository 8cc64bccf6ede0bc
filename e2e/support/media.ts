import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface VideoOptions {
  seconds: number;
  /** Constant video bitrate in bits per second: the file's size is close to seconds × bitrate / 8. */
  bitrate: number;
  width?: number;
  height?: number;
  /** Add a sine audio track (AAC). @default true */
  audio?: boolean;
}

/**
 * A real H.264 MP4 made by ffmpeg at test time (no binaries in git). Constant bitrate with
 * filler (nal-hrd=cbr) makes the size predictable, so "multi-megabyte" is a parameter.
 */
export async function makeVideo(options: VideoOptions, name = 'clip.mp4'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-e2e-media-'));
  const file = join(dir, name);
  const { seconds, bitrate, width = 640, height = 360, audio = true } = options;
  const kbps = `${Math.round(bitrate / 1000)}k`;
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`];
  if (audio) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100');
  args.push('-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  args.push('-b:v', kbps, '-minrate', kbps, '-maxrate', kbps, '-bufsize', kbps, '-x264-params', 'nal-hrd=cbr');
  if (audio) args.push('-c:a', 'aac', '-b:a', '64k');
  args.push('-movflags', '+faststart', file);
  await run(process.env.FFMPEG_PATH || 'ffmpeg', args);
  return file;
}

/** The container's duration in seconds, as ffprobe reads it. */
export async function probeDuration(file: string): Promise<number> {
  const { stdout } = await run(process.env.FFPROBE_PATH || 'ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

/** Deletes a file made by {@link makeVideo} and its temporary folder. */
export function removeVideo(file: string | undefined): void {
  if (file) rmSync(dirname(file), { recursive: true, force: true });
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolveHash, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolveHash(hash.digest('hex')));
  });
}
