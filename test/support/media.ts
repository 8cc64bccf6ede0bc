import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestVideoOptions {
  width: number;
  height: number;
  /** @default 2 */
  seconds?: number;
  /** @default true */
  audio?: boolean;
}

/** A small H.264 (+ AAC) MP4 made by ffmpeg from its test pattern and a sine tone; returns its path. */
export async function makeTestVideo(dir: string, name: string, options: TestVideoOptions): Promise<string> {
  const { width, height, seconds = 2, audio = true } = options;
  const file = join(dir, name);
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
  args.push('-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=15:duration=${seconds}`);
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  if (audio) args.push('-c:a', 'aac', '-shortest');
  args.push(file);
  await run('ffmpeg', args);
  return file;
}

interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
}

export interface Probed {
  streams: ProbedStream[];
  duration: number;
}

/** What ffprobe reads in a file (or an http://127.0.0.1 URL). */
export async function probe(target: string): Promise<Probed> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', target]);
  const json = JSON.parse(stdout) as { streams: ProbedStream[]; format: { duration?: string } };
  return { streams: json.streams, duration: Number(json.format.duration ?? 0) };
}

export async function pictureSize(target: string): Promise<{ width: number; height: number; codec: string }> {
  const { streams } = await probe(target);
  const video = streams.find((stream) => stream.codec_type === 'video')!;
  return { width: video.width!, height: video.height!, codec: video.codec_name };
}
