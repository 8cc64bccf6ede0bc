import { MediaToolError, runMediaTool } from './ffmpeg';
import type { ProcessLedger } from './processLedger';

/** The file was read but holds no playable video (a picture, audio only, random bytes). */
export class NotAVideoError extends Error {
  override readonly name = 'NotAVideoError';
}

/** The picture has more pixels than `MAX_SOURCE_PIXELS` allows; nothing of it is decoded. */
export class PictureTooLargeError extends Error {
  override readonly name = 'PictureTooLargeError';

  constructor(limit: number, size?: { width: number; height: number }) {
    const what = size ? ` ${size.width}x${size.height} (${size.width * size.height} pixels),` : '';
    super(`the picture is${what} over the limit of ${limit} pixels (MAX_SOURCE_PIXELS)`);
  }
}

/**
 * The `-max_pixels` given to ffmpeg's decoders: a memory guard, not the policy. Decoders count
 * the width rounded up for alignment (1000×1000 is checked as 1024×1000), so with the exact
 * limit a picture just within it would be refused; the policy is {@link describeMedia}'s exact
 * width × height check.
 */
export function decoderMaxPixels(limit: number): number {
  return Math.min(2 * limit, 2_147_483_647);
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
  /** The streams as ffprobe reads them: what `remuxPlan` (playability.ts) decides by. */
  codecs: StreamCodecs;
}

/** The codecs ffprobe reads, not what the file's name claims. */
export interface StreamCodecs {
  /** ffprobe's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` for MP4, MOV and M4V alike. */
  container: string;
  video: {
    index: number;
    codec: string;
    profile: string;
    pixelFormat: string;
    /**
     * The first coded picture is not shown: an edit list starts the picture past it, as a cut made
     * without encoding leaves (the frames from the key frame before the cut stay in the file).
     */
    firstFrameHidden: boolean;
    /**
     * Open GOPs: a key frame is followed (in decoding order) by pictures shown before it, which
     * refer to the GOP before. A player that seeks to that key frame cannot decode them.
     */
    openGop: boolean;
  };
  /** The first audio stream; absent when there is none. */
  audio?: { index: number; codec: string };
}

interface ProbeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  /** e.g. "1/1000": the unit of the stream's packet timestamps. */
  time_base?: string;
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
  const normalized = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return Number.isFinite(normalized) ? normalized : 0;
}

function sampleAspect(text: string | undefined): number {
  const match = /^(\d+):(\d+)$/.exec(text ?? '');
  if (!match || match[1] === '0' || match[2] === '0') return 1;
  return Number(match[1]) / Number(match[2]);
}

function parseProbe(json: string): ProbeJson {
  try {
    return JSON.parse(json) as ProbeJson;
  } catch {
    throw new NotAVideoError('ffprobe did not describe the file');
  }
}

/** The moving picture's stream: cover art in an MP3 or M4A is a video stream too, but a still one. */
function videoStreamOf(parsed: ProbeJson): ProbeStream | undefined {
  return parsed.streams?.find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic);
}

/** The length the file's header states (its own, or its video stream's); 0 when it states none. */
function statedDuration(parsed: ProbeJson, video: ProbeStream): number {
  return positive(parsed.format?.duration) || positive(video.duration);
}

/**
 * The end of a stream in seconds from its packets (ffprobe's `packet=pts,duration` as CSV, in
 * `timeBase` units): the last packet's timestamp plus its duration, or plus the mean gap between
 * packets when the container gives none (WebM's SimpleBlocks carry no duration).
 */
export function endOfPackets(csv: string, timeBase: string): number {
  const match = /^(\d+)\/(\d+)$/.exec(timeBase);
  if (!match || match[2] === '0') return 0;
  const packets = csv
    .split('\n')
    .map((line) => line.split(','))
    .filter(([pts]) => pts !== undefined && /^-?\d+$/.test(pts))
    .map(([pts, duration]) => ({ pts: Number(pts), duration: Number(duration) }));
  if (packets.length === 0) return 0;
  const first = Math.min(...packets.map((packet) => packet.pts));
  const last = packets.reduce((latest, packet) => (packet.pts >= latest.pts ? packet : latest));
  const meanGap = packets.length > 1 ? (last.pts - first) / (packets.length - 1) : 0;
  const end = last.pts + (Number.isFinite(last.duration) && last.duration > 0 ? last.duration : meanGap);
  return (end * Number(match[1])) / Number(match[2]);
}

/**
 * The end of the latest stream in seconds (ffprobe's `packet=stream_index,pts,duration` as CSV),
 * as a player counts a file's length. The video's alone would fall short: when the recording
 * machine is busy, MediaRecorder drops the last video frames and the sound runs on.
 */
export function endOfStreams(csv: string, streams: { index?: number; time_base?: string }[]): number {
  const byStream = new Map<string, string[]>();
  for (const line of csv.split('\n')) {
    const comma = line.indexOf(',');
    if (comma <= 0) continue;
    const index = line.slice(0, comma);
    if (!byStream.has(index)) byStream.set(index, []);
    byStream.get(index)!.push(line.slice(comma + 1));
  }
  let end = 0;
  for (const [index, lines] of byStream) {
    const stream = streams.find((candidate) => String(candidate.index) === index);
    end = Math.max(end, endOfPackets(lines.join('\n'), stream?.time_base ?? ''));
  }
  return end;
}

/** What {@link probeMedia} reads beyond ffprobe's description of the streams, when it reads it. */
export interface PacketFacts {
  /** The length measured from the packets: it counts when the header states none. */
  duration?: number;
  /** ffprobe's `packet=pts,flags` of the video's first packets as CSV, in decoding order, e.g. `0,K_`. */
  videoPackets?: string;
}

/**
 * How much of the video {@link probeMedia} reads to tell its GOPs (an encoder keeps one structure
 * throughout): a count, not a time, so a file whose timestamps never advance cannot make it read on.
 */
const GOP_SAMPLE_PACKETS = 2000;

/**
 * What the first packets of a video tell: whether the first is one the edit list leaves out
 * (ffmpeg's MP4 demuxer flags those D, discard), and whether any key frame after the first is
 * followed, before the next key frame, by a picture shown earlier than it (open GOPs).
 */
export function gopFacts(csv: string): { firstFrameHidden: boolean; openGop: boolean } {
  const packets = csv
    .split('\n')
    .map((line) => line.split(','))
    .filter(([pts, flags]) => pts !== undefined && flags !== undefined)
    .map(([pts, flags]) => ({
      pts: /^-?\d+$/.test(pts!) ? Number(pts) : undefined,
      key: flags!.includes('K'),
      discard: flags!.includes('D'),
    }));
  let openGop = false;
  let keyPts: number | undefined;
  packets.forEach((packet, index) => {
    if (packet.key) keyPts = index === 0 ? undefined : packet.pts;
    else if (keyPts !== undefined && packet.pts !== undefined && packet.pts < keyPts) openGop = true;
  });
  return { firstFrameHidden: packets[0]?.discard ?? false, openGop };
}

/**
 * Reads ffprobe's JSON; throws {@link NotAVideoError} for anything without a moving picture and
 * {@link PictureTooLargeError} for a picture of more than `maxPixels`. `packets`: what
 * {@link probeMedia} read of the packets (a header-less recording's length, the first picture's flags).
 */
export function describeMedia(json: string, maxPixels = Number.MAX_SAFE_INTEGER, packets: PacketFacts = {}): MediaInfo {
  const parsed = parseProbe(json);
  const streams = parsed.streams ?? [];
  const video = videoStreamOf(parsed);
  if (!video || !positive(String(video.width)) || !positive(String(video.height))) {
    throw new NotAVideoError('the file has no video stream');
  }
  if (video.width! * video.height! > maxPixels) throw new PictureTooLargeError(maxPixels, { width: video.width!, height: video.height! });
  const duration = statedDuration(parsed, video) || (packets.duration ?? 0);
  if (duration === 0) throw new NotAVideoError('the file has no duration (a still picture?)');

  const rotation = rotationOf(video);
  const shownWidth = Math.max(1, Math.round(video.width! * sampleAspect(video.sample_aspect_ratio)));
  const quarterTurn = rotation === 90 || rotation === 270;
  const size = positive(parsed.format?.size);
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  return {
    duration: Math.round(duration * 1000) / 1000,
    displayWidth: quarterTurn ? video.height! : shownWidth,
    displayHeight: quarterTurn ? shownWidth : video.height!,
    rotation,
    hasAudio: audio !== undefined,
    bitrateKbps: Math.round((positive(parsed.format?.bit_rate) || (size * 8) / duration) / 1000),
    codecs: {
      container: parsed.format?.format_name ?? '',
      video: {
        index: video.index ?? 0,
        codec: video.codec_name ?? '',
        profile: video.profile ?? '',
        pixelFormat: video.pix_fmt ?? '',
        ...gopFacts(packets.videoPackets ?? ''),
      },
      ...(audio ? { audio: { index: audio.index ?? 0, codec: audio.codec_name ?? '' } } : {}),
    },
  };
}

/** What ffmpeg's decoders say when `-max_pixels` refuses a picture (the same text since ffmpeg 3). */
const MAX_PIXELS_REFUSAL = 'exceeds specified max pixel count';

/** ffprobe's one demuxer for MP4, MOV, M4V, 3GP, the containers with edit lists and display matrices. */
export const ISO_MEDIA = 'mov,mp4,m4a,3gp,3g2,mj2';

/**
 * ffprobe decodes a few frames to describe a stream, so `-max_pixels` guards it too: a picture
 * far over the limit is refused when its decoder opens, before a frame buffer is allocated.
 * Packets are read only when the description leaves something out: a file whose header states no
 * length (MediaRecorder writes its WebM as a live stream, with no Duration and no Cues) is
 * measured from all of them (a demux, no decoding, a few bytes of output per packet); of an
 * MP4/MOV, the video's first packets tell whether an edit list hides its first frames and whether
 * its GOPs are open ({@link gopFacts}).
 */
export async function probeMedia(
  ffprobePath: string,
  file: string,
  signal: AbortSignal,
  maxPixels: number,
  ledger?: ProcessLedger,
): Promise<MediaInfo> {
  let json: string;
  try {
    json = await runMediaTool(
      ffprobePath,
      [
        '-v',
        'error',
        '-max_pixels',
        String(decoderMaxPixels(maxPixels)),
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        `file:${file}`,
      ],
      signal,
      ledger,
    );
  } catch (error) {
    if (error instanceof MediaToolError && error.message.includes(MAX_PIXELS_REFUSAL)) throw new PictureTooLargeError(maxPixels);
    throw error;
  }
  const parsed = parseProbe(json);
  const video = videoStreamOf(parsed);
  if (!video) return describeMedia(json, maxPixels);
  const facts: PacketFacts = {};
  if (parsed.format?.format_name === ISO_MEDIA) {
    facts.videoPackets = await runMediaTool(
      ffprobePath,
      [
        '-v',
        'error',
        '-select_streams',
        String(video.index ?? 0),
        '-read_intervals',
        `%+#${GOP_SAMPLE_PACKETS}`,
        '-show_entries',
        'packet=pts,flags',
        '-of',
        'csv=p=0',
        `file:${file}`,
      ],
      signal,
      ledger,
    );
  }
  if (statedDuration(parsed, video) === 0) {
    const packets = await runMediaTool(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'packet=stream_index,pts,duration', '-of', 'csv=p=0', `file:${file}`],
      signal,
      ledger,
    );
    facts.duration = endOfStreams(packets, parsed.streams ?? []);
  }
  return describeMedia(json, maxPixels, facts);
}
