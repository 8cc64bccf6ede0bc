import { decoderMaxPixels } from './probe';

/** One rung of the bitrate ladder: the picture's short side and the H.264 video bitrate for it. */
interface Rung {
  size: number;
  videoKbps: number;
}

/** From best to lightest; a source gets the highest rungs that fit it, never an upscaled one. */
const LADDER: readonly Rung[] = [
  { size: 1080, videoKbps: 4500 },
  { size: 720, videoKbps: 2500 },
  { size: 480, videoKbps: 1000 },
  { size: 360, videoKbps: 600 },
  { size: 240, videoKbps: 300 },
];

/** The lightest rung's short side: the whole ladder of a source just above it, or the foot of a taller one. */
export const LADDER_FOOT = LADDER[LADDER.length - 1]!.size;

const MAX_RENDITIONS = 3;

export interface Rendition {
  /** File name in the video's media folder, e.g. `720p.mp4`. */
  file: string;
  /** BitrateLabel, e.g. `720P`. */
  label: string;
  /** Bitrate (kbps) of the video stream; the AAC track adds {@link Rendition.audioKbps}. */
  videoKbps: number;
  audioKbps: number;
  width: number;
  height: number;
  /** The short side, what the `p` of the label counts. */
  size: number;
}

/** H.264 in 4:2:0 needs even sizes; rounding down keeps every rendition within the source. */
const evenDown = (value: number) => Math.max(2, Math.floor(value / 2) * 2);

/**
 * The renditions for a picture shown at `width`×`height`. Rungs count the short side, so a
 * portrait phone video (1080×1920) gets 1080p, 720p and 480p like its landscape twin; a source
 * below the lowest rung gets one rendition at its own size.
 */
export function chooseRenditions(width: number, height: number): Rendition[] {
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  const fitting = LADDER.filter((rung) => rung.size <= short).slice(0, MAX_RENDITIONS);
  const rungs = fitting.length > 0 ? fitting : [{ size: evenDown(short), videoKbps: LADDER[LADDER.length - 1]!.videoKbps }];
  return rungs.map((rung) => {
    const longSide = evenDown((long * rung.size) / short);
    return {
      file: `${rung.size}p.mp4`,
      label: `${rung.size}P`,
      videoKbps: rung.videoKbps,
      audioKbps: rung.size >= 480 ? 128 : 96,
      width: width >= height ? longSide : rung.size,
      height: width >= height ? rung.size : longSide,
      size: rung.size,
    };
  });
}

/** x264's presets, fastest first: how hard the encoder looks for a better picture at the same bitrate. */
export const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'] as const;
export type X264Preset = (typeof X264_PRESETS)[number];

/** How the rungs are encoded: x264's preset, and options of its own (`-x264-params`) on top. */
export interface EncoderSettings {
  preset: X264Preset;
  /** e.g. `subme=1:me=dia`; none: the preset's own. */
  x264Params?: string;
}

export interface RenditionOutput {
  rendition: Rendition;
  path: string;
}

/** Seconds between key frames, so a player can seek to within this much without decoding far. */
const KEYFRAME_SECONDS = 2;

/**
 * A rung is one file for both ways of playing it: a fragment per key frame (every
 * {@link KEYFRAME_SECONDS} s), each a byte range an HLS media playlist names, and a global sidx
 * in front that indexes them, so `<video src>` seeks in it too. `empty_moov` is not optional:
 * ffmpeg 5.1 (Debian 12's) with `frag_keyframe+global_sidx` alone writes the first fragment's
 * samples into a plain mdat before the sidx, which HLS then cannot address.
 * `default_base_moof` makes each fragment stand alone, as an HLS segment must.
 * `delay_moov` writes the (still empty) moov once the first fragment is cut, when the muxer knows
 * each track's first timestamps, so it carries an edit list: without one, B-frames' decoding delay
 * starts the picture two frames after the sound and the source's clock, and the AAC encoder's
 * priming samples are heard before the sound.
 */
const FRAGMENTED = '+frag_keyframe+empty_moov+delay_moov+default_base_moof+global_sidx';

/**
 * One ffmpeg run decodes the source once and writes every rendition (H.264 + AAC in fragmented
 * MP4, see {@link FRAGMENTED}). ffmpeg applies the
 * source's rotation while decoding, so the sizes here are the shown ones. A source without audio
 * gives renditions without audio (`0:a:0?` maps it only when present).
 */
export function transcodeArgs(
  input: string,
  outputs: readonly RenditionOutput[],
  threads: number,
  maxPixels: number,
  encoder: EncoderSettings,
  options: { /** false: leave the sound out (it could not be decoded). @default true */ audio?: boolean } = {},
): string[] {
  const audio = options.audio ?? true;
  const x264Params = encoder.x264Params ? ['-x264-params', encoder.x264Params] : [];
  const branches = outputs.map((_, index) => `[s${index}]`).join('');
  const scales = outputs
    .map(({ rendition }, index) => `[s${index}]scale=${rendition.width}:${rendition.height},setsar=1[v${index}]`)
    .join(';');
  // -max_pixels: a stream may grow its picture after the part ffprobe looked at.
  const args = [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-threads',
    String(threads),
    '-max_pixels',
    String(decoderMaxPixels(maxPixels)),
    '-i',
    `file:${input}`,
  ];
  // Frames are passed on as they are, never duplicated to fill gaps: with the MP4 muxer's default
  // constant rate, a 30 KB file declaring 10 hours between two frames made ffmpeg encode two
  // million copies. (`-vsync` rather than `-fps_mode`, which ffmpeg 4 lacks.)
  args.push('-vsync', 'vfr');
  args.push('-filter_complex', `[0:v:0]split=${outputs.length}${branches};${scales}`);
  outputs.forEach(({ rendition, path }, index) => {
    args.push(
      '-map',
      `[v${index}]`,
      ...(audio ? ['-map', '0:a:0?'] : []),
      '-c:v',
      'libx264',
      '-preset',
      encoder.preset,
      ...x264Params,
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      `${rendition.videoKbps}k`,
      '-maxrate',
      `${Math.round(rendition.videoKbps * 1.5)}k`,
      '-bufsize',
      `${rendition.videoKbps * 2}k`,
      '-force_key_frames',
      `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
      ...(audio ? ['-c:a', 'aac', '-b:a', `${rendition.audioKbps}k`, '-ac', '2'] : ['-an']),
      '-threads',
      String(threads),
      '-map_metadata',
      '-1',
      '-movflags',
      FRAGMENTED,
      '-f',
      'mp4',
      `file:${path}`,
    );
  });
  return args;
}
