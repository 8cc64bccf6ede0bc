import { runMediaTool } from './ffmpeg';

/** The file was read but holds no playable video (a picture, audio only, random bytes). */
export class NotAVideoError extends Error {
  override readonly name = 'NotAVideoError';
}

export interface MediaInfo {
  /** Seconds, rounded to the millisecond. */
  duration: number;
  /** Size as shown: sample aspect ratio applied and rotation turned, so a portrait phone video is taller than wide. */
  displayWidth: number;
  displayHeight: number;
  /** Degrees the player turns the picture (0, 90, 180, 270); ffmpeg applies the same turn when it decodes. */
  rotation: number;
  hasAudio: boolean;
  /** Whole file, kilobits per second; 0 when neither ffprobe nor size and duration tell. */
  bitrateKbps: number;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { duration?: string; bit_rate?: string; size?: string; format_name?: string };
}

function positive(text: string | undefined): number {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function rotationOf(stream: ProbeStream): number {
  // ffmpeg ≥ 5 reports a display matrix; files written by older tools may carry a `rotate` tag instead.
  // Only whether it is a quarter turn matters here (width and height swap), not its direction.
  const fromMatrix = stream.side_data_list?.find((side) => typeof side.rotation === 'number')?.rotation;
  const degrees = fromMatrix ?? Number(stream.tags?.rotate ?? 0);
  const normalized = ((Math.round(degrees / 90) * 90) % 360 + 360) % 360;
  return Number.isFinite(normalized) ? normalized : 0;
}

function sampleAspect(text: string | undefined): number {
  const match = /^(\d+):(\d+)$/.exec(text ?? '');
  if (!match || match[1] === '0' || match[2] === '0') return 1;
  return Number(match[1]) / Number(match[2]);
}

/** Reads ffprobe's JSON; throws {@link NotAVideoError} for anything without a moving picture. */
export function describeMedia(json: string): MediaInfo {
  let parsed: ProbeJson;
  try {
    parsed = JSON.parse(json) as ProbeJson;
  } catch {
    throw new NotAVideoError('ffprobe did not describe the file');
  }
  const streams = parsed.streams ?? [];
  // Cover art in an MP3 or M4A is a video stream too, but a still one.
  const video = streams.find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic);
  if (!video || !positive(String(video.width)) || !positive(String(video.height))) {
    throw new NotAVideoError('the file has no video stream');
  }
  const duration = positive(parsed.format?.duration) || positive(video.duration);
  if (duration === 0) throw new NotAVideoError('the file has no duration (a still picture?)');

  const rotation = rotationOf(video);
  const shownWidth = Math.max(1, Math.round(video.width! * sampleAspect(video.sample_aspect_ratio)));
  const quarterTurn = rotation === 90 || rotation === 270;
  const size = positive(parsed.format?.size);
  return {
    duration: Math.round(duration * 1000) / 1000,
    displayWidth: quarterTurn ? video.height! : shownWidth,
    displayHeight: quarterTurn ? shownWidth : video.height!,
    rotation,
    hasAudio: streams.some((stream) => stream.codec_type === 'audio'),
    bitrateKbps: Math.round((positive(parsed.format?.bit_rate) || (size * 8) / duration) / 1000),
  };
}

export async function probeMedia(ffprobePath: string, file: string, signal: AbortSignal): Promise<MediaInfo> {
  const json = await runMediaTool(
    ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', `file:${file}`],
    signal,
  );
  return describeMedia(json);
}
