import { MediaToolError, runMediaTool } from './ffmpeg';
import type { RemuxAudio, RemuxPlan } from './playability';
import type { ProcessLedger } from './processLedger';

/** The remux's name in the video's folder; listed as `Original` until the ladder's best rung replaces it. */
export const REMUX_FILE = 'original.mp4';

/**
 * The source's streams copied, not encoded, into an MP4 with its index in front (`+faststart`),
 * so a browser starts playing before the whole file arrives. A copy keeps the timestamps, so a
 * variable frame rate stays as it was; the MP4 muxer writes the source's edit list and display
 * matrix again, so the duration and the orientation play as in the source. Only the picture and
 * the first audio track go in: a MOV's timecode or data tracks have no place in a browser's file.
 */
function remuxArgs(input: string, output: string, plan: RemuxPlan, audio: RemuxAudio): string[] {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', `file:${input}`, '-map', `0:${plan.videoStream}`];
  if (audio !== 'none' && plan.audioStream !== undefined) args.push('-map', `0:${plan.audioStream}`);
  args.push('-c:v', 'copy');
  if (audio === 'copy') args.push('-c:a', 'copy');
  else if (audio === 'encode') args.push('-c:a', 'aac', '-b:a', '128k', '-ac', '2');
  // Titles and the like stay in the source (DownloadURL); the picture's turn is stream side data, not metadata, and stays.
  args.push('-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', `file:${output}`);
  return args;
}

export interface RemuxOutcome {
  /** Why the audio was left out, when it was: the source's picture plays, its sound cannot. */
  audioDropped?: string;
}

/**
 * Remuxes per `plan`; an audio track that cannot be copied or encoded (an unknown codec, broken
 * packets) is dropped and the picture published alone, with the reason returned for the log.
 * Throws {@link MediaToolError} when even the picture alone cannot be remuxed (the caller then
 * encodes it).
 */
export async function remux(
  ffmpegPath: string,
  input: string,
  output: string,
  plan: RemuxPlan,
  signal: AbortSignal,
  ledger?: ProcessLedger,
): Promise<RemuxOutcome> {
  if (plan.audio === 'none') {
    await runMediaTool(ffmpegPath, remuxArgs(input, output, plan, 'none'), signal, ledger);
    return {};
  }
  try {
    await runMediaTool(ffmpegPath, remuxArgs(input, output, plan, plan.audio), signal, ledger);
    return {};
  } catch (error) {
    if (!(error instanceof MediaToolError)) throw error;
    await runMediaTool(ffmpegPath, remuxArgs(input, output, plan, 'none'), signal, ledger);
    return { audioDropped: error.message };
  }
}
