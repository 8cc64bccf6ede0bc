import { fillIn, type StringTable } from '../../shared/i18n/strings';

/** The service's ResultCode for an app over one of its quotas: a wait helps, unlike other refusals. */
const TOO_MANY_REQUESTS = '116';

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
  empty(name: string): string;
  notVideo(name: string): string;
  /** The name says video, the first bytes say otherwise (a renamed file). */
  notVideoContent(name: string): string;
  unreadable(name: string): string;
  tooLarge(name: string, max: string): string;
  /** The page's `accept` does not list the file's container. */
  notAccepted(name: string, container: string, accepted: string): string;
  tooShort(name: string, duration: string, min: string): string;
  tooLong(name: string, duration: string, max: string): string;
  /** A duration limit is set and the browser could not read the file's duration. */
  durationUnknown(name: string): string;
  /** Under the size limit: the page's restrictions, said before a file is chosen. */
  acceptHint(accepted: string): string;
  durationRange(min: string, max: string): string;
  durationAtLeast(min: string): string;
  durationAtMost(max: string): string;
  networkError: string;
  /** The page's origin reaches the service's pages but not its upload path: a setting to change. */
  unreachable(pageOrigin: string, serviceOrigin: string, uploadPath: string): string;
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
  units: { bytes: readonly string[]; hour: string; minute: string; second: string };
}

/** The texts of the table the service put in the page (its language, the `strings` option applied). */
export function textsFor(table: StringTable): Texts {
  const t =
    (key: keyof StringTable) =>
    (values: Record<string, string> = {}) =>
      fillIn(table[key], values);
  return {
    title: table.title,
    choose: table.choose,
    dropHint: table.dropHint,
    dropZone: table.dropZone,
    limit: (max) => t('limit')({ max }),
    resumeHint: (name, percent) => t('resumeHint')({ name, percent }),
    preparing: (name) => t('preparing')({ name }),
    uploading: (name) => t('uploading')({ name }),
    paused: (name) => t('paused')({ name }),
    waitingForNetwork: (name) => t('waitingForNetwork')({ name }),
    progressLabel: table.progressLabel,
    milestone: (name, percent) => t('milestone')({ name, percent }),
    ofTotal: (sent, total) => t('ofTotal')({ sent, total }),
    speed: (perSecond) => t('speed')({ perSecond }),
    timeLeft: (duration) => t('timeLeft')({ duration }),
    pause: table.pause,
    resume: table.resume,
    cancel: table.cancel,
    retry: table.retry,
    canceled: table.canceled,
    empty: (name) => t('empty')({ name }),
    notVideo: (name) => t('notVideo')({ name }),
    notVideoContent: (name) => t('notVideoContent')({ name }),
    unreadable: (name) => t('unreadable')({ name }),
    tooLarge: (name, max) => t('tooLarge')({ name, max }),
    notAccepted: (name, container, accepted) => t('notAccepted')({ name, container, accepted }),
    tooShort: (name, duration, min) => t('tooShort')({ name, duration, min }),
    tooLong: (name, duration, max) => t('tooLong')({ name, duration, max }),
    durationUnknown: (name) => t('durationUnknown')({ name }),
    acceptHint: (accepted) => t('acceptHint')({ accepted }),
    durationRange: (min, max) => t('durationRange')({ min, max }),
    durationAtLeast: (min) => t('durationAtLeast')({ min }),
    durationAtMost: (max) => t('durationAtMost')({ max }),
    networkError: table.networkError,
    unreachable: (pageOrigin, serviceOrigin, uploadPath) => t('unreachable')({ pageOrigin, serviceOrigin, uploadPath }),
    serverRefused: (code) =>
      code === TOO_MANY_REQUESTS ? t('tooManyUploads')({ code }) : code ? t('serverRefused')({ code }) : table.serverRefusedNoCode,
    success: (name) => t('success')({ name }),
    processingNext: table.processingNext,
    close: table.close,
    askClose: (percent) => t('askClose')({ percent }),
    keepUploading: table.keepUploading,
    stopAndClose: table.stopAndClose,
    discard: table.discard,
    askDiscard: (name, percent) => t('askDiscard')({ name, percent }),
    keepStored: table.keepStored,
    discarded: table.discarded,
    discardFailed: table.discardFailed,
    askReplace: (stored, percent, chosen) => t('askReplace')({ stored, percent, chosen }),
    replace: table.replace,
    noPreview: table.noPreview,
    posterAlt: (name) => t('posterAlt')({ name }),
    processingReady: table.processingReady,
    processingFailed: table.processingFailed,
    continueFile: (name, percent) => t('continueFile')({ name, percent }),
    reopenFailed: (name) => t('reopenFailed')({ name }),
    units: {
      bytes: [table.unitByte, table.unitKiB, table.unitMiB, table.unitGiB, table.unitTiB],
      hour: table.unitHour,
      minute: table.unitMinute,
      second: table.unitSecond,
    },
  };
}
