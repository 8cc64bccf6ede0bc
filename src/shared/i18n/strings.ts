import type { LoaderWords } from './loaderWords';

/** The recorder's texts (recordingTexts.ts), which only a page that records gets, with its boot data. */
export type RecordingKey =
  | 'cameraDenied'
  | 'screenDenied'
  | 'noCamera'
  | 'recordFailed'
  | 'recordingCut'
  | 'nothingRecorded'
  | 'recordCamera'
  | 'recordScreen'
  | 'askingSource'
  | 'startRecording'
  | 'countdown'
  | 'recordingNow'
  | 'stopRecording'
  | 'reviewTake'
  | 'keepTake'
  | 'retake';

/**
 * The keys of the widget's texts: the `strings` option overrides any of them, and every language
 * has them all (i18n.test.ts). The English texts are locales/en.ts, loaderWords.ts and
 * recordingTexts.ts; the list with those texts is docs/widget.md's table. Texts with values name
 * them as `{name}`.
 */
export type StringKey =
  // The loader's own words (loaderWords.ts).
  | 'dialog'
  | 'close'
  | 'closed'
  | 'errorHeading'
  | 'adviceSetting'
  // The uploader.
  | 'title'
  | 'choose'
  | 'dropHint'
  | 'dropZone'
  | 'limit'
  | 'resumeHint'
  | 'preparing'
  | 'uploading'
  | 'paused'
  | 'waitingForNetwork'
  | 'progressLabel'
  | 'milestone'
  | 'ofTotal'
  | 'speed'
  | 'timeLeft'
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'retry'
  | 'canceled'
  | 'empty'
  | 'notVideo'
  | 'notVideoContent'
  | 'unreadable'
  | 'tooLarge'
  | 'notAccepted'
  | 'tooShort'
  | 'tooLong'
  | 'durationUnknown'
  | 'acceptHint'
  | 'durationRange'
  | 'durationAtLeast'
  | 'durationAtMost'
  | 'networkError'
  | 'unreachable'
  | 'serverRefused'
  | 'serverRefusedNoCode'
  | 'tooManyUploads'
  | 'success'
  | 'processingNext'
  | 'askClose'
  | 'keepUploading'
  | 'stopAndClose'
  | 'discard'
  | 'askDiscard'
  | 'keepStored'
  | 'discarded'
  | 'discardFailed'
  | 'askReplace'
  | 'replace'
  | 'noPreview'
  | 'posterAlt'
  | 'processingReady'
  | 'processingFailed'
  | 'continueFile'
  | 'reopenFailed'
  // The recorder's.
  | RecordingKey
  | 'unitByte'
  | 'unitKiB'
  | 'unitMiB'
  | 'unitGiB'
  | 'unitTiB'
  | 'unitHour'
  | 'unitMinute'
  | 'unitSecond'
  // The service's error page.
  | 'errorTitle'
  | 'advice101'
  | 'advice102'
  | 'advice103'
  | 'advice104'
  | 'advice105'
  | 'advice106'
  | 'advice107'
  | 'advice108'
  | 'advice113'
  | 'advice116'
  | 'advice500'
  | 'adviceOther';

/** Every text of one language. */
export type StringTable = Record<StringKey, string>;

/** The `strings` option: texts by key, each replacing that text in every language. */
export type WidgetStrings = Partial<StringTable>;

/** Fills a text's `{name}` placeholders; one without a value stays as written. */
export function fillIn(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

/** The placeholders a text uses, sorted, once each. */
export function placeholdersOf(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(/\{(\w+)\}/g), (match) => match[1]!))].sort();
}

/** The keys of the upload page's and the service's error page's texts (locales/), the rest being the loader's and the recorder's. */
type PageKey = Exclude<StringKey, keyof LoaderWords | RecordingKey>;
export type PageTexts = Record<PageKey, string>;
