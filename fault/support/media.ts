import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A long, well-compressed H.264 file (a minute is ~13 MB) whose transcode takes seconds, so a test can interrupt it. */
export async function makeLongVideo(dir: string, seconds = 60): Promise<string> {
  const file = join(dir, 'long.mp4');
  await run('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=640x360:rate=25:duration=${seconds}`,
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
