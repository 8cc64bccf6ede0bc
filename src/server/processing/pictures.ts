import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runMediaTool } from './ffmpeg';
import type { ProcessLedger } from './processLedger';
import { decoderMaxPixels, NotAVideoError, type MediaInfo } from './probe';

/** The spec's picture sizes, selected with `?t=<n>` on PicSavePath: width and height in pixels. */
export const PICTURE_SIZES = {
  2: { width: 200, height: 200 },
  3: { width: 262, height: 175 },
  4: { width: 200, height: 110 },
  5: { width: 180, height: 136 },
  6: { width: 680, height: 530 },
  7: { width: 420, height: 240 },
} as const satisfies Record<number, { width: number; height: number }>;
export type PictureSize = keyof typeof PICTURE_SIZES;

export function isPictureSize(value: number): value is PictureSize {
  return Object.hasOwn(PICTURE_SIZES, value);
}

/** The default picture (PicSavePath without `t`). */
export const POSTER_FILE = 'poster.jpg';

export function sizedPictureFile(size: PictureSize): string {
  return `poster-t${size}.jpg`;
}

/** The default picture fits in this square, keeping the video's shown aspect; it is never upscaled. */
const DEFAULT_PICTURE_BOX = 640;

/**
 * Where the poster frame is taken: a tenth into the video, at most 5 s in, so a fade-in or a
 * black first frame is skipped; the first frame for videos under a second.
 */
export function posterTime(duration: number): number {
  if (duration < 1) return 0;
  return Math.round(Math.min(5, duration / 10) * 1000) / 1000;
}

export interface PictureOutput {
  file: string;
  /** The frame is scaled to this size… */
  scaleWidth: number;
  scaleHeight: number;
  /** …then cut to this one around its centre (equal to the scale for the default picture). */
  width: number;
  height: number;
}

/**
 * The seven pictures of a video shown at `shownWidth`×`shownHeight`. Sized pictures keep the
 * aspect ratio by scale-to-cover then centre-crop: the frame is scaled until it covers the whole
 * box, and what overhangs is cut evenly from both sides, so nothing is stretched and no bars are
 * added.
 */
export function pictureOutputs(shownWidth: number, shownHeight: number): PictureOutput[] {
  const fit = Math.min(1, DEFAULT_PICTURE_BOX / Math.max(shownWidth, shownHeight));
  const width = Math.max(1, Math.round(shownWidth * fit));
  const height = Math.max(1, Math.round(shownHeight * fit));
  const outputs: PictureOutput[] = [{ file: POSTER_FILE, scaleWidth: width, scaleHeight: height, width, height }];
  for (const key of Object.keys(PICTURE_SIZES)) {
    const size = Number(key) as PictureSize;
    const box = PICTURE_SIZES[size];
    const cover = Math.max(box.width / shownWidth, box.height / shownHeight);
    outputs.push({
      file: sizedPictureFile(size),
      scaleWidth: Math.max(box.width, Math.ceil(shownWidth * cover)),
      scaleHeight: Math.max(box.height, Math.ceil(shownHeight * cover)),
      width: box.width,
      height: box.height,
    });
  }
  return outputs;
}

/** One ffmpeg run: seek to `at`, take one frame, write every picture as JPEG. */
function pictureArgs(
  input: string,
  at: number,
  outputs: readonly PictureOutput[],
  dir: string,
  threads: number,
  maxPixels: number,
): string[] {
  const branches = outputs.map((_, index) => `[s${index}]`).join('');
  const chains = outputs
    .map((out, index) => {
      const crop = out.scaleWidth === out.width && out.scaleHeight === out.height ? '' : `,crop=${out.width}:${out.height}`;
      // Full-resolution chroma before the crop: in 4:2:0 the crop would round an odd height (175) down.
      return `[s${index}]scale=${out.scaleWidth}:${out.scaleHeight},format=yuvj444p${crop},setsar=1[p${index}]`;
    })
    .join(';');
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-threads', String(threads)];
  args.push(
    '-max_pixels',
    String(decoderMaxPixels(maxPixels)),
    '-ss',
    String(at),
    '-i',
    `file:${input}`,
    '-filter_complex',
    `[0:v:0]split=${outputs.length}${branches};${chains}`,
  );
  outputs.forEach((out, index) => {
    args.push('-map', `[p${index}]`, '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-update', '1', `file:${join(dir, out.file)}`);
  });
  return args;
}

async function allWritten(dir: string, outputs: readonly PictureOutput[]): Promise<boolean> {
  for (const out of outputs) {
    const info = await stat(join(dir, out.file)).catch(() => undefined);
    if (!info || info.size === 0) return false;
  }
  return true;
}

/**
 * Writes the default picture and the six sized ones into `dir`; returns their file names. When
 * the container claims more duration than its frames cover, the seek finds no frame, so the
 * first frame is taken instead.
 */
export async function makePictures(
  ffmpegPath: string,
  input: string,
  dir: string,
  info: MediaInfo,
  threads: number,
  maxPixels: number,
  signal: AbortSignal,
  ledger?: ProcessLedger,
): Promise<string[]> {
  const outputs = pictureOutputs(info.displayWidth, info.displayHeight);
  const at = posterTime(info.duration);
  for (const time of at > 0 ? [at, 0] : [0]) {
    await runMediaTool(ffmpegPath, pictureArgs(input, time, outputs, dir, threads, maxPixels), signal, ledger);
    if (await allWritten(dir, outputs)) return outputs.map((out) => out.file);
  }
  throw new NotAVideoError('no frame could be taken from the video for its picture');
}
