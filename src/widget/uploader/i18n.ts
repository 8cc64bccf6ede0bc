import { fillIn, type StringKey, type StringTable } from '../../shared/i18n/strings';
import type { ResultCodeOf } from '../../shared/resultCodes';

/** The service's ResultCode for an app over one of its quotas: a wait helps, unlike other refusals. */
const TOO_MANY_REQUESTS: ResultCodeOf<'TOO_MANY_REQUESTS'> = '116';

/** The uploader's texts as its components use them: the page's one table (UploadPageBoot.strings) with the values filled in. */
export interface Texts {
  title: string;
  choose: string;
  dropHint: string;
  dropZone: string;
  limit(max: string): string;
  resumeHint(name: string, percent: string): string;
  preparing(name: string): string;
  uploading(name: string): string;
  paused(name: string): string;
  waitingForNetwork(name: string): string;
  progressLabel: string;
  /** Announced to screen readers at each 10 % step. */
  milestone(name: string, percent: string): string;
  ofTotal(sent: string, total: string): string;
  speed(perSecond: string): string;
  timeLeft(duration: string): string;
  pause: string;
  resume: string;
  cancel: string;
  retry: string;
  canceled: string;
  networkError: string;
  serverRefused(code: string | undefined): string;
  success(name: string): string;
  /** Under the success line: what happens to the file now. */
  processingNext: string;
  close: string;
  /** × or Escape while bytes move. */
  askClose(percent: string): string;
  keepUploading: string;
  stopAndClose: string;
  discard: string;
  askDiscard(name: string, percent: string): string;
  keepStored: string;
  discarded: string;
  discardFailed: string;
  /** Another file chosen while the service holds part of an earlier one. */
  askReplace(stored: string, percent: string, chosen: string): string;
  replace: string;
  noPreview: string;
  posterAlt(name: string): string;
  /** After the upload, when the service reports status 1 or 7. */
  processingReady: string;
  processingFailed: string;
  /** Reopened for an unfinished upload whose file handle the browser kept. */
  continueFile(name: string, percent: string): string;
  reopenFailed(name: string): string;
  /** Recording could not start: the camera, microphone or screen refused, none there, or anything else. */
  cameraDenied: string;
  screenDenied: string;
  noCamera: string;
  recordFailed: string;
  /** The page was hidden or the share ended mid-recording: the take is kept. */
  recordingCut: string;
  /** The recording stopped before the recorder handed over any data (a share ended at once): no take. */
  nothingRecorded: string;
  /** The Record choices, and the recorder's words (recorder/RecordPanel.tsx, the status line). */
  recordCamera: string;
  recordScreen: string;
  askingSource: string;
  startRecording: string;
  countdown(seconds: string): string;
  recordingNow: string;
  stopRecording: string;
  reviewTake(duration: string): string;
  keepTake: string;
  retake: string;
  units: { bytes: readonly string[]; hour: string; minute: string; second: string };
  /**
   * Any text with its values, for those whose values vary with the case: a refused file's (its
   * key is the refusal, FileRefusal), the page's restrictions (limits.ts) and `unreachable`.
   */
  fill(key: StringKey, values: Record<string, string>): string;
}

/**
 * The texts with values, each with its values' names in the order its method takes them. Made
 * from this table rather than written one by one: the uploader's first paint carries every byte
 * (test/widget.budget.test.ts).
 */
const PARAMETERS = {
  limit: ['max'],
  resumeHint: ['name', 'percent'],
  preparing: ['name'],
  uploading: ['name'],
  paused: ['name'],
  waitingForNetwork: ['name'],
  milestone: ['name', 'percent'],
  ofTotal: ['sent', 'total'],
  speed: ['perSecond'],
  timeLeft: ['duration'],
  success: ['name'],
  askClose: ['percent'],
  askDiscard: ['name', 'percent'],
  askReplace: ['stored', 'percent', 'chosen'],
  posterAlt: ['name'],
  continueFile: ['name', 'percent'],
  reopenFailed: ['name'],
  countdown: ['seconds'],
  reviewTake: ['duration'],
} as const satisfies { [K in keyof Texts & StringKey]?: readonly string[] };

/** The texts of the table the service put in the page (its language, the `strings` option applied). */
export function textsFor(table: StringTable): Texts {
  const fill = (key: StringKey, values: Record<string, string>) => fillIn(table[key], values);
  const withValues = Object.fromEntries(
    Object.entries(PARAMETERS).map(([key, names]) => [
      key,
      (...values: string[]) => fill(key as StringKey, Object.fromEntries(names.map((name, i) => [name, values[i]!]))),
    ]),
  );
  return {
    // The texts without values are the table's own (its other keys ride along unused).
    ...table,
    ...(withValues as Pick<Texts, keyof typeof PARAMETERS>),
    serverRefused: (code) =>
      code === TOO_MANY_REQUESTS ? fill('tooManyUploads', { code }) : code ? fill('serverRefused', { code }) : table.serverRefusedNoCode,
    units: {
      bytes: [table.unitByte, table.unitKiB, table.unitMiB, table.unitGiB, table.unitTiB],
      hour: table.unitHour,
      minute: table.unitMinute,
      second: table.unitSecond,
    },
    fill,
  };
}
