import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A long, well-compressed H.264 file (a minute is ~13 MB) whose transcode takes seconds, so a test can interrupt it.
 * H.264 is remuxed first and reaches status 1 at once, its rungs following; `mpeg4` (MPEG-4 Part 2, which browsers do
 * not play) has its lightest rung encoded before status 1, for a test that needs a transcode under way in status 6.
 */
export async function makeLongVideo(dir: string, seconds = 60, codec: 'libx264' | 'mpeg4' = 'libx264'): Promise<string> {
  const file = join(dir, codec === 'libx264' ? 'long.mp4' : 'long-mpeg4.mp4');
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
    ...(codec === 'libx264' ? ['-c:v', 'libx264', '-preset', 'ultrafast'] : ['-c:v', 'mpeg4', '-q:v', '5']),
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}
