import { ISO_MEDIA, type StreamCodecs } from './probe';

/**
 * H.264 profiles every browser decodes. High 10, 4:2:2 and 4:4:4 are left out: Chromium and
 * Safari refuse them, and so are all but 8-bit 4:2:0 pictures.
 */
const PLAYABLE_PROFILES = new Set(['Constrained Baseline', 'Baseline', 'Main', 'High']);

/** `yuvj420p` is `yuv420p` at full range (many cameras write it); browsers show it alike. */
const PLAYABLE_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);

/**
 * How the source's audio gets into the remux: copied when browsers play it (AAC), else encoded to
 * AAC (a camera's PCM, an MP3 track: cheap beside the picture), or left out when there is none.
 */
export type RemuxAudio = 'copy' | 'encode' | 'none';

export interface RemuxPlan {
  videoStream: number;
  audioStream?: number;
  audio: RemuxAudio;
}

/**
 * Whether a browser plays the source's picture as it is, and so a remux (no re-encoding) makes
 * it playable at once; undefined when the picture must be encoded. Only MP4/MOV/M4V/3GP: their
 * H.264/AAC streams copy into an MP4 as they are (the timestamps, edit list and display matrix
 * keep their meaning). Not when an edit list hides the first frames (a cut made without
 * encoding): Firefox shows them, and its duration grows by them as it plays; the encode drops
 * them. Nor with open GOPs: Chromium fails to decode the pictures after a key frame it seeked
 * to (a media error, the end of playback). The file's name is never consulted, only what ffprobe read.
 */
export function remuxPlan(codecs: StreamCodecs): RemuxPlan | undefined {
  const { container, video, audio } = codecs;
  const playable =
    container === ISO_MEDIA &&
    video.codec === 'h264' &&
    PLAYABLE_PROFILES.has(video.profile) &&
    PLAYABLE_PIXEL_FORMATS.has(video.pixelFormat) &&
    !video.firstFrameHidden &&
    !video.openGop;
  if (!playable) return undefined;
  if (!audio) return { videoStream: video.index, audio: 'none' };
  return { videoStream: video.index, audioStream: audio.index, audio: audio.codec === 'aac' ? 'copy' : 'encode' };
}
