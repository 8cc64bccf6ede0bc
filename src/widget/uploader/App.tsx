import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { StringTable } from '../../shared/i18n/strings';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { AskPanel } from './AskPanel';
import { ChoosePanel } from './ChoosePanel';
import { discardUpload } from './discardUpload';
import { DonePanel } from './DonePanel';
import { browserHandleStore, type HandleStore } from './fileHandles';
import type { HostLink } from './hostLink';
import { applyLook } from './look';
import { askingNow, isMoving, isPicking, isRecording, isSending, RETRY_POLICY, screenOf, type RetryPolicy } from './machine';
import { useEscapeKey, useEverySecond, useFocusOnChange, useLeavePrompt, usePastedFile } from './pageHooks';
import { Preview } from './Preview';
import { fetchProcessingStatus } from './processingStatus';
import { SendingPanel } from './SendingPanel';
import type { StartUpload } from './uploadCore';
import { questionWords, statusLine } from './uploaderText';
import { useUploadMachine } from './useUploadMachine';
import type * as Limits from './limits';
import type { RecordChoice } from './RecordChoice';
import { previewVideo } from './videoPreview';

export interface AppProps {
  boot: UploadPageBoot;
  /** Every text of the page's language, the `strings` option's in place (pageTexts.ts). */
  strings: StringTable;
  host: HostLink;
  startUpload: StartUpload;
  fingerprint(file: File): Promise<string>;
  /** Milliseconds, for the speed estimate. @default performance.now() */
  now?: () => number;
  /** When to try again after a failure that may pass. @default RETRY_POLICY (quietly after 0, 1, 3, 5 and 10 s, then every 10 s) */
  retry?: RetryPolicy;
  /** Drops the service's unfinished upload ("Discard upload"). @default discardUpload (tus DELETE) */
  discard?: (uploadUrl: string, ticket: string) => Promise<boolean>;
  /** Poster, duration and resolution of the chosen file. @default previewVideo (a `<video>` on an object URL) */
  preview?: typeof previewVideo;
  /** The checks and words of the page's restrictions (limits.ts), when it sets any (main.tsx loads them). */
  limits?: typeof Limits | undefined;
  /** "Record with camera", "Record the screen", when the page's `sources` ask for recording (main.tsx loads them). */
  RecordChoice?: typeof RecordChoice | undefined;
  /** The video's status after the upload. @default fetchProcessingStatus (GET /UploadWidget/Status with the ticket) */
  processingStatus?: (ticket: string) => Promise<number | undefined>;
  /** How often to ask for it. @default 5 000 */
  statusPollMs?: number;
  /** Where the chosen file's handle is kept for reopening. @default the browser's (IndexedDB), in the popup form only */
  handles?: HandleStore | undefined;
}

/** The uploader's layout: the uploader (createUploader, through useUploadMachine) decides, this only shows it and sends events. */
export function App({
  boot,
  strings,
  host,
  startUpload,
  fingerprint,
  now = () => performance.now(),
  retry = RETRY_POLICY,
  discard = discardUpload,
  preview: givenPreview = previewVideo,
  processingStatus = fetchProcessingStatus,
  statusPollMs = 5000,
  handles: givenHandles,
  limits,
  RecordChoice,
}: AppProps) {
  // The overlay's iframe is third-party: its storage is partitioned or refused, so only the popup keeps handles.
  const handles = useMemo(() => givenHandles ?? (boot.form === 'popup' ? browserHandleStore() : undefined), [givenHandles, boot.form]);
  // One reading per file for the duration check and the Preview.
  const preview = useMemo(() => (limits ? limits.sharedPreview(givenPreview) : givenPreview), [limits, givenPreview]);
  const { model, send, setup, meter, recorder } = useUploadMachine({
    boot,
    strings,
    host,
    startUpload,
    fingerprint,
    preview,
    limits,
    now,
    retry,
    discard,
    processingStatus,
    statusPollMs,
    handles,
  });
  // The service picks the language: the config's `lang`, else the browser's (Accept-Language).
  const t = setup.texts;
  const { state } = model;
  const asking = askingNow(model);
  // The control to hold keyboard focus after each change of screen, and the safe answer of an open question.
  const primary = useRef<HTMLButtonElement>(null);
  const safeAnswer = useRef<HTMLButtonElement>(null);

  // Before the first paint, so a dark page never flashes light.
  useLayoutEffect(() => applyLook(document.documentElement, boot.look), [boot.look]);
  useEscapeKey(boot.form === 'overlay', send);
  useLeavePrompt(boot.form === 'popup' && isMoving(state));
  usePastedFile(isPicking(state) && !asking, send);
  useEverySecond(isMoving(state));
  useFocusOnChange(`${screenOf(state)} ${asking?.kind ?? ''}`, asking ? safeAnswer : primary);

  const words = asking && questionWords(asking, model, t);
  return (
    <main class="uploader" lang={boot.lang}>
      <h1>{t.title}</h1>
      {isPicking(state) && !asking && (
        <ChoosePanel
          texts={t}
          maxFileSize={boot.maxFileSize}
          hints={limits?.limitHints(boot.limits, t) ?? []}
          stored={model.stored}
          keptHandle={model.keptHandle}
          keepsHandles={!!handles}
          files={boot.sources.includes('file')}
          RecordChoice={RecordChoice}
          sources={boot.sources}
          primary={primary}
          send={send}
        />
      )}
      {words && (
        <AskPanel
          {...words}
          safeRef={safeAnswer}
          onSafe={() => send({ type: 'answerSafe' })}
          onRisky={() => send({ type: 'answerRisky' })}
        />
      )}
      <p role="status" class={state.kind === 'done' ? 'status done' : 'status'}>
        {isRecording(state) ? recorder?.status(state, t) : statusLine(state, t)}
      </p>
      {'file' in state && state.kind !== 'review' && <Preview file={state.file} texts={t} preview={preview} />}
      {recorder && isRecording(state) && (
        <recorder.Panel texts={t} state={state} stream={recorder.session.stream()} primary={primary} send={send} />
      )}
      {isSending(state) && (
        <SendingPanel texts={t} state={state} estimate={meter.estimate(state.file.size)} asking={!!asking} primary={primary} send={send} />
      )}
      {state.kind === 'done' && <DonePanel texts={t} videoStatus={model.videoStatus} primary={primary} send={send} />}
      <p role="alert" class={model.notice?.tone === 'error' ? 'notice error' : 'notice'}>
        {model.notice?.text}
      </p>
    </main>
  );
}
