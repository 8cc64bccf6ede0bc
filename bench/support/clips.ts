import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A clip the processing benches make with ffmpeg, with a tone for its audio. */
export interface Clip {
  name: string;
  seconds: number;
  width: number;
  height: number;
  /** H.264/AAC MP4 or VP9/Opus WebM. */
  kind: 'mp4' | 'webm';
  /**
   * testsrc is flat colour and costs an encoder little; camera footage has grain in every frame.
   * A grainy clip (30 fps, moving pattern, temporal noise) makes the encoder work as a real one would.
   */
  grainy: boolean;
}

export async function makeClip(dir: string, source: Clip): Promise<string> {
  const file = join(dir, `${source.name}-${source.seconds}s-${source.height}p.${source.kind}`);
  const picture = source.grainy
    ? `testsrc2=size=${source.width}x${source.height}:rate=30:duration=${source.seconds},noise=alls=12:allf=t`
    : `testsrc=size=${source.width}x${source.height}:rate=30:duration=${source.seconds}`;
  const codecs =
    source.kind === 'mp4'
      ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac']
      : ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '2M', '-c:a', 'libopus'];
  await promisify(execFile)('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    picture,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${source.seconds}`,
    ...codecs,
    '-shortest',
    file,
  ]);
  return file;
}
