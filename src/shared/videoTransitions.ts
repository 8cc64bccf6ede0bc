import { VideoStatus } from './videoStatus';

/** One change of a video's status: `from` null is its registration; `when` is the event that makes it. */
export interface VideoTransition {
  from: VideoStatus | null;
  to: VideoStatus;
  when: string;
}

const S = VideoStatus;

/**
 * Every change of a video's status the service makes: the spec's States and transitions, and the
 * service's own (a job put back in the queue, a failed step retried by the operator). The service
 * writes no other (the video store refuses one), so a step the table does not name fails loudly
 * instead of leaving a video in a state nothing takes it out of. Status 1 is the end: the rungs
 * added after it change no status. Status 0 is never set: the spec defines no deletion call.
 * docs/processing.md's "States and transitions" table lists these rows, in this order.
 */
export const VIDEO_TRANSITIONS: readonly VideoTransition[] = [
  { from: null, to: S.NotUploaded, when: 'registered with `SourceFileGetType` 1' },
  { from: null, to: S.WaitingForDownload, when: 'registered with `SourceFileGetType` 2' },
  { from: S.NotUploaded, to: S.WaitingForTranscoding, when: "the upload's last byte is stored" },
  { from: S.WaitingForDownload, to: S.Downloading, when: 'a worker takes the download job' },
  { from: S.Downloading, to: S.WaitingForTranscoding, when: 'the source is stored' },
  { from: S.Downloading, to: S.DownloadFailed, when: 'the download failed, or was cut off 3 times (callback sent)' },
  { from: S.WaitingForTranscoding, to: S.Transcoding, when: 'a worker takes the transcode job' },
  {
    from: S.Transcoding,
    to: S.Normal,
    when: 'the first playable file (a remux, or the lightest rung) and pictures are ready (callback sent; later rungs send none)',
  },
  { from: S.Transcoding, to: S.TranscodingFailed, when: 'not a video, corrupt, ffmpeg failed, or cut off 3 times (callback sent)' },
  {
    from: S.Downloading,
    to: S.WaitingForDownload,
    when: 'the job was stopped or cut off (a crash), or the S3 bucket was lost; it is queued again',
  },
  {
    from: S.Transcoding,
    to: S.WaitingForTranscoding,
    when: 'the job was stopped or cut off (a crash), or the S3 bucket was lost; it is queued again',
  },
  { from: S.WaitingForDownload, to: S.DownloadFailed, when: 'its job was cut off 3 times before the video moved (callback sent)' },
  { from: S.WaitingForTranscoding, to: S.TranscodingFailed, when: 'its job was cut off 3 times before the video moved (callback sent)' },
  { from: S.DownloadFailed, to: S.WaitingForDownload, when: 'the operator retries it (`npx open-video-upload jobs retry`)' },
  { from: S.TranscodingFailed, to: S.WaitingForTranscoding, when: 'the operator retries it (`npx open-video-upload jobs retry`)' },
];

/** Whether the table has the change from `from` (null: registering) to `to`. */
export function isVideoTransition(from: VideoStatus | null, to: VideoStatus): boolean {
  return VIDEO_TRANSITIONS.some((row) => row.from === from && row.to === to);
}
