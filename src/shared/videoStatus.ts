/**
 * The spec's numbers, named once for the service, the uploader and the SDK (which exports them):
 * a video's status (States and transitions; which changes the service makes is the table of
 * videoTransitions.ts) and how its source file arrives.
 */
export const VideoStatus = {
  WaitingForDeletion: 0,
  Normal: 1,
  WaitingForDownload: 2,
  Downloading: 3,
  DownloadFailed: 4,
  WaitingForTranscoding: 5,
  Transcoding: 6,
  TranscodingFailed: 7,
  NotUploaded: 8,
} as const;
export type VideoStatus = (typeof VideoStatus)[keyof typeof VideoStatus];

/** `SourceFileGetType`: the file comes through the upload widget (1), or the service downloads `SourceFilePath` (2). */
export const SourceFileGetType = {
  Upload: 1,
  Download: 2,
} as const;
export type SourceFileGetType = (typeof SourceFileGetType)[keyof typeof SourceFileGetType];

/** Whether `value` is one of the spec's states (0–8). */
export function isVideoStatus(value: number): value is VideoStatus {
  return (Object.values(VideoStatus) as number[]).includes(value);
}
