import type { Ref } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { StringTable } from '../../shared/i18n/strings';
import type { ResumeState, UploadPageBoot } from '../../shared/uploadPage';
import { PROCESSED_STATUSES, type UploadProgressInfo } from '../../shared/widgetConfig';
import { discardUpload } from './discardUpload';
import { browserHandleStore, type FileHandle, type HandleStore } from './fileHandles';
import { FilePicker } from './FilePicker';
import { refuseFile } from './fileChecks';
import { formatBytes, formatPercent } from './format';
import type { HostLink } from './hostLink';
import { textsFor } from './i18n';
import { applyLook } from './look';
import { Preview } from './Preview';
import { fetchProcessingStatus } from './processingStatus';
import { ProgressPanel } from './ProgressPanel';
import type { previewVideo } from './videoPreview';
import { SpeedMeter } from './speedMeter';
import { throttle } from './throttle';
import { sniffVideoContainer } from './videoSignature';
import type { StartUpload, UploadControl } from './uploadCore';
import { VideoStatus } from '../../shared/videoStatus';

export interface AppProps {
  boot: UploadPageBoot;
  /** Every text of the page's language, the `strings` option's in place (pageTexts.ts). */
  strings: StringTable;
  host: HostLink;
  startUpload: StartUpload;
  fingerprint(file: File): Promise<string>;
  /** Milliseconds, for the speed estimate. */
  now?: () => number;
  /** After a network failure while the browser says it is online (the service may be back), try again after this long. @default 10 000 */
  autoRetryMs?: number;
  /** Drops the service's unfinished upload ("Discard upload"). @default discardUpload (tus DELETE) */
  discard?: (uploadUrl: string, ticket: string) => Promise<boolean>;
  /** Poster, duration and resolution of the chosen file. @default previewVideo (a `<video>` on an object URL) */
  preview?: typeof previewVideo;
  /** The video's status after the upload. @default fetchProcessingStatus (GET /UploadWidget/Status with the ticket) */
  processingStatus?: (ticket: string) => Promise<number | undefined>;
  /** How often to ask for it. @default 5 000 */
  statusPollMs?: number;
  /** Where the chosen file's handle is kept for reopening. @default the browser's (IndexedDB), in the popup form only */
  handles?: HandleStore | undefined;
}

/** Processing has ended: 1 ready to play, 4 or 7 failed. */
const FINAL_STATUSES: readonly number[] = PROCESSED_STATUSES;
/** The host's `onProgress` at most 10 times a second. */
const PROGRESS_PERIOD_MS = 100;

type Phase =
  | { kind: 'idle' }
  | { kind: 'preparing'; file: File }
  | { kind: 'uploading' | 'paused' | 'failed'; file: File; sent: number }
  | { kind: 'done'; file: File };

/** A question that must be answered before anything is lost: closing mid-upload, discarding, replacing stored bytes. */
type Question = { kind: 'close' } | { kind: 'discard' } | { kind: 'replace'; file: File; print: string; handle: FileHandle | undefined };

interface Notice {
  tone: 'error' | 'info';
  text: string;
}

export function App({ boot, strings, host, startUpload, fingerprint, now = () => performance.now(), autoRetryMs = 10_000, discard = discardUpload, preview, processingStatus = fetchProcessingStatus, statusPollMs = 5000, handles: givenHandles }: AppProps) {
  // The service picks the language: the config's `lang`, else the browser's (Accept-Language).
  const lang = boot.lang;
  const t = useMemo(() => textsFor(strings), [strings]);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const [question, setQuestion] = useState<Question | null>(null);
  // The overlay's iframe is third-party: its storage is partitioned or refused, so only the popup keeps handles.
  const handles = useMemo(() => givenHandles ?? (boot.form === 'popup' ? browserHandleStore() : undefined), [givenHandles, boot.form]);
  // The kept handle of the unfinished upload's file, offered as "Continue “big.mp4” from 37 %".
  const [keptHandle, setKeptHandle] = useState<FileHandle | undefined>(undefined);
  // For listeners registered once: whether bytes are moving right now.
  const phaseNow = useRef(phase);
  phaseNow.current = phase;
  const questionNow = useRef<Question | null>(null);
  const control = useRef<UploadControl | null>(null);
  // Each chosen file gets a new generation; events of an abandoned upload are dropped by comparing it.
  const generation = useRef(0);
  const meter = useMemo(() => new SpeedMeter(), []);
  // The upload the service holds for this video: from the page at first, then whichever this page
  // created or resumed, so a cancelled upload continues when the same file is chosen again.
  const stored = useRef<ResumeState | null>(boot.resume);
  // onError reports an outage once, not again for each automatic attempt that fails during it.
  const outageReported = useRef(false);
  const [, redraw] = useState(0);
  // The control to hold keyboard focus after each change of state: the button that was pressed is
  // often gone (Pause becomes Resume), and focus must not fall back to <body>.
  const primary = useRef<HTMLButtonElement>(null);
  // The safe answer of an open question (keep uploading, keep the stored bytes) takes focus.
  const safeAnswer = useRef<HTMLButtonElement>(null);
  const firstRender = useRef(true);
  const progress = useMemo(() => throttle((info: UploadProgressInfo) => host.post({ type: 'progress', info }), PROGRESS_PERIOD_MS), [host]);

  // Closing while bytes move asks first; otherwise the loader closes at once.
  const askOrClose = () => {
    if (phaseNow.current.kind === 'uploading') setQuestion({ kind: 'close' });
    else host.post({ type: 'close' });
  };

  // Before the first paint, so a dark page never flashes light.
  useLayoutEffect(() => applyLook(document.documentElement, boot.look), [boot.look]);

  useEffect(() => {
    const saved = stored.current;
    if (!handles || !saved) return;
    void handles.load(boot.videoId).then((handle) => {
      if (handle && handle.name === saved.fileName && stored.current === saved) setKeptHandle(handle);
    });
  }, [handles]);

  useEffect(() => {
    host.post({ type: 'ready', valid: true });
    return host.onHost((type) => {
      // The host is closing: stop sending so the service keeps a clean offset to resume from.
      if (type === 'close') control.current?.pause();
      else askOrClose();
    });
  }, [host]);

  // A layout effect, so Escape works from the first paint: a plain effect runs a frame later,
  // while the uploader is already on screen and focusable.
  useLayoutEffect(() => {
    // Escape inside the iframe never reaches the host page, so the page handles it: it answers
    // an open question with its safe choice, else asks the loader to close (asking first mid-upload).
    if (boot.form !== 'overlay') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (questionNow.current) setQuestion(null);
      else askOrClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [boot.form, host]);

  // The popup is a window of its own: closing it mid-upload gets the browser's "Leave site?" prompt.
  useEffect(() => {
    if (boot.form !== 'popup' || phase.kind !== 'uploading') return;
    const onLeave = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium shows the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [boot.form, phase.kind]);

  const fileInfo = (file: File) => ({ videoId: boot.videoId, fileName: file.name, fileSize: file.size });

  const refuse = (file: File, text: string) => {
    setPhase({ kind: 'idle' });
    setNotice({ tone: 'error', text });
    host.post({ type: 'failure', info: { ...fileInfo(file), reason: 'rejected', message: text } });
  };

  const choose = async (file: File, handle?: FileHandle) => {
    const refusal = refuseFile(file, boot.maxFileSize);
    if (refusal) {
      refuse(file, refusal === 'tooLarge' ? t.tooLarge(file.name, formatBytes(boot.maxFileSize, t)) : t[refusal](file.name));
      return;
    }
    const current = ++generation.current;
    setNotice(null);
    setPhase({ kind: 'preparing', file });
    let print: string;
    try {
      // Its first bytes must be a video container: a renamed text file would otherwise be stored,
      // reported as a success, and fail in processing where the person never sees it.
      if (!(await sniffVideoContainer(file))) {
        if (current === generation.current) refuse(file, t.notVideoContent(file.name));
        return;
      }
      print = await fingerprint(file);
    } catch {
      refuse(file, t.unreadable(file.name));
      return;
    }
    if (current !== generation.current) return;

    const saved = stored.current;
    const resume = saved && saved.fingerprint === print && saved.size === file.size && saved.fileName === file.name ? saved : null;
    // Another file would replace the bytes the service holds: ask before they are lost.
    if (saved && !resume && saved.offset > 0) {
      setPhase({ kind: 'idle' });
      setQuestion({ kind: 'replace', file, print, handle });
      return;
    }
    begin(file, print, resume, handle);
  };

  const begin = (file: File, print: string, resume: ResumeState | null, handle: FileHandle | undefined) => {
    setKeptHandle(undefined);
    // Kept for this video while its upload is unfinished; a file chosen without a handle drops an older one.
    if (handle) void handles?.save(boot.videoId, handle);
    else void handles?.forget(boot.videoId);
    const current = ++generation.current;
    const live = () => current === generation.current;
    // The transport may report the whole size more than once (the last chunk, then its reply).
    let finishing = false;
    meter.reset();
    setPhase({ kind: 'uploading', file, sent: resume?.offset ?? 0 });
    host.post({ type: 'uploading', busy: true });
    control.current = startUpload(
      { file, fingerprint: print, videoId: boot.videoId, endpoint: boot.tusEndpoint, ticket: boot.ticket, resume },
      {
        onStored(uploadUrl, offset) {
          stored.current = { uploadUrl, offset, size: file.size, fileName: file.name, fingerprint: print };
        },
        onProgress(sent) {
          if (!live()) return;
          outageReported.current = false;
          meter.add(now(), sent);
          setPhase((p) => (p.kind === 'uploading' ? { ...p, sent } : p));
          // Once every byte is sent, repeats of the whole size are no news to the host.
          if (finishing) return;
          progress.push({ bytesUploaded: sent, bytesTotal: file.size });
          // Every byte sent: the service completes the file; the last figure goes out before this.
          if (sent === file.size) {
            finishing = true;
            progress.flush();
            host.post({ type: 'state', info: { state: 'finishing' } });
          }
        },
        onSuccess() {
          if (!live()) return;
          stored.current = null;
          void handles?.forget(boot.videoId);
          control.current = null;
          setPhase({ kind: 'done', file });
          host.post({ type: 'success', info: fileInfo(file) });
        },
        onRefused(code) {
          if (!live()) return;
          control.current = null;
          const text = t.serverRefused(code);
          setPhase({ kind: 'idle' });
          setNotice({ tone: 'error', text });
          host.post({ type: 'uploading', busy: false });
          host.post({ type: 'failure', info: { ...fileInfo(file), reason: 'server', message: text, ...(code ? { code } : {}) } });
        },
        onNetworkError(bytesUploaded) {
          if (!live()) return;
          // The screen shows what the service confirmed, the same figure onError reports.
          setPhase((p) => (p.kind === 'uploading' ? { ...p, kind: 'failed', sent: bytesUploaded } : p));
          setNotice({ tone: 'error', text: t.networkError });
          host.post({ type: 'uploading', busy: false });
          // Either way it goes on by itself (the effect on the failed phase below).
          host.post({ type: 'state', info: { state: navigator.onLine === false ? 'offline' : 'retrying' } });
          if (outageReported.current) return;
          outageReported.current = true;
          host.post({ type: 'error', info: { ...fileInfo(file), reason: 'network', message: t.networkError, bytesUploaded } });
        },
      },
    );
  };

  const pause = () => {
    control.current?.pause();
    meter.reset();
    setPhase((p) => (p.kind === 'uploading' ? { ...p, kind: 'paused' } : p));
    host.post({ type: 'uploading', busy: false });
    host.post({ type: 'state', info: { state: 'paused' } });
  };

  const resume = () => {
    setNotice(null);
    setPhase((p) => (p.kind === 'paused' || p.kind === 'failed' ? { ...p, kind: 'uploading' } : p));
    host.post({ type: 'uploading', busy: true });
    host.post({ type: 'state', info: { state: 'resumed' } });
    control.current?.resume();
  };

  const stopAndClose = () => {
    setQuestion(null);
    pause();
    host.post({ type: 'close' });
  };

  const discardStored = async () => {
    setQuestion(null);
    const saved = stored.current;
    if (!saved) return;
    if (await discard(saved.uploadUrl, boot.ticket)) {
      stored.current = null;
      setKeptHandle(undefined);
      void handles?.forget(boot.videoId);
      setNotice({ tone: 'info', text: t.discarded });
    } else {
      setNotice({ tone: 'error', text: t.discardFailed });
    }
  };

  const continueKept = async (handle: FileHandle) => {
    const file = await handles?.open(handle);
    if (file) {
      void choose(file, handle);
      return;
    }
    setKeptHandle(undefined);
    setNotice({ tone: 'error', text: t.reopenFailed(handle.name) });
  };

  const cancel = () => {
    generation.current += 1;
    control.current?.pause();
    control.current = null;
    setPhase({ kind: 'idle' });
    setNotice({ tone: 'info', text: t.canceled });
    host.post({ type: 'uploading', busy: false });
  };

  // After a network failure the upload continues by itself: at once when the browser says it is
  // back online, else after a pause (the service may answer again), so nobody must find "Try again".
  useEffect(() => {
    if (phase.kind !== 'failed') return;
    const again = () => resume();
    window.addEventListener('online', again);
    const timer = navigator.onLine === false ? undefined : setTimeout(again, autoRetryMs);
    return () => {
      window.removeEventListener('online', again);
      clearTimeout(timer);
    };
  }, [phase.kind]);

  // A close question is moot once nothing moves (the upload finished or failed meanwhile).
  const asking = question && (question.kind !== 'close' || phase.kind === 'uploading') ? question : null;
  questionNow.current = asking;

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    (asking ? safeAnswer : primary).current?.focus();
  }, [phase.kind, asking?.kind]);

  // Paste a file (Ctrl+V of a copied file) to choose it, as a drop would.
  useEffect(() => {
    if (phase.kind !== 'idle' || asking) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = event.clipboardData?.files[0];
      if (!file) return;
      event.preventDefault();
      void choose(file);
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [phase.kind, asking]);

  // After the upload, ask how processing goes until it ends (or the widget closes with the page).
  const [videoStatus, setVideoStatus] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (phase.kind !== 'done') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const ask = async () => {
      const found = await processingStatus(boot.ticket);
      if (stopped) return;
      if (found !== undefined) setVideoStatus(found);
      if (found === undefined || !FINAL_STATUSES.includes(found)) timer = setTimeout(() => void ask(), statusPollMs);
      else host.post({ type: 'processed', info: { videoId: boot.videoId, status: found as (typeof PROCESSED_STATUSES)[number] } });
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [phase.kind]);

  // Time passes without progress events while a request waits: refresh the estimate each second.
  useEffect(() => {
    if (phase.kind !== 'uploading') return;
    const timer = setInterval(() => redraw((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [phase.kind]);

  const storedPercent = () => (stored.current ? formatPercent(stored.current.offset, stored.current.size) : '');
  const questionText = (open: Question) => {
    if (open.kind === 'close') return t.askClose(phase.kind === 'uploading' ? formatPercent(phase.sent, phase.file.size) : '');
    if (open.kind === 'discard') return t.askDiscard(stored.current?.fileName ?? '', storedPercent());
    return t.askReplace(stored.current?.fileName ?? '', storedPercent(), open.file.name);
  };

  let status = '';
  if (phase.kind === 'preparing') status = t.preparing(phase.file.name);
  else if (phase.kind === 'uploading') status = t.uploading(phase.file.name);
  else if (phase.kind === 'failed') status = t.waitingForNetwork(phase.file.name);
  else if (phase.kind === 'paused') status = t.paused(phase.file.name);
  else if (phase.kind === 'done') status = t.success(phase.file.name);

  return (
    <main class="uploader" lang={lang}>
      <h1>{t.title}</h1>
      {phase.kind === 'idle' && !asking && (
        <>
          {stored.current && (
            <div class="stored">
              <p class="hint">{t.resumeHint(stored.current.fileName, formatPercent(stored.current.offset, stored.current.size))}</p>
              <button type="button" onClick={() => setQuestion({ kind: 'discard' })}>
                {t.discard}
              </button>
            </div>
          )}
          {keptHandle && stored.current && (
            <button type="button" ref={primary} class="primary continue" onClick={() => void continueKept(keptHandle)}>
              {t.continueFile(keptHandle.name, formatPercent(stored.current.offset, stored.current.size))}
            </button>
          )}
          <FilePicker texts={t} onFile={(file) => void choose(file)} buttonRef={keptHandle ? undefined : primary} onDroppedHandle={handles && ((file, handle) => void handle.then((found) => choose(file, found)))} />
          <p class="hint">{t.limit(formatBytes(boot.maxFileSize, t))}</p>
        </>
      )}
      {asking && (
        <AskPanel
          text={questionText(asking)}
          safe={asking.kind === 'close' ? t.keepUploading : t.keepStored}
          risky={asking.kind === 'close' ? t.stopAndClose : asking.kind === 'discard' ? t.discard : t.replace}
          safeRef={safeAnswer}
          onSafe={() => setQuestion(null)}
          onRisky={() => {
            if (asking.kind === 'close') stopAndClose();
            else if (asking.kind === 'discard') void discardStored();
            else {
              setQuestion(null);
              begin(asking.file, asking.print, null, asking.handle);
            }
          }}
        />
      )}
      <p role="status" class={phase.kind === 'done' ? 'status done' : 'status'}>
        {status}
      </p>
      {phase.kind !== 'idle' && <Preview file={phase.file} texts={t} preview={preview} />}
      {(phase.kind === 'uploading' || phase.kind === 'paused' || phase.kind === 'failed') && (
        <>
          <ProgressPanel
            texts={t}
            fileName={phase.file.name}
            sent={phase.sent}
            total={phase.file.size}
            estimate={phase.kind === 'uploading' ? meter.estimate(phase.file.size) : null}
          />
          <div class="actions" hidden={!!asking}>
            {phase.kind === 'uploading' && (
              <button type="button" ref={primary} onClick={pause}>
                {t.pause}
              </button>
            )}
            {phase.kind === 'paused' && (
              <button type="button" ref={primary} class="primary" onClick={resume}>
                {t.resume}
              </button>
            )}
            {phase.kind === 'failed' && (
              <button type="button" ref={primary} class="primary" onClick={resume}>
                {t.retry}
              </button>
            )}
            <button type="button" onClick={cancel}>
              {t.cancel}
            </button>
          </div>
        </>
      )}
      {phase.kind === 'done' && (
        <>
          <p class="hint" aria-live="polite">
            {videoStatus === VideoStatus.Normal
              ? t.processingReady
              : videoStatus === VideoStatus.DownloadFailed || videoStatus === VideoStatus.TranscodingFailed
                ? t.processingFailed
                : t.processingNext}
          </p>
          <div class="actions">
            <button type="button" ref={primary} class="primary" onClick={() => host.post({ type: 'close' })}>
              {t.close}
            </button>
          </div>
        </>
      )}
      <p role="alert" class={notice?.tone === 'error' ? 'notice error' : 'notice'}>
        {notice?.text}
      </p>
    </main>
  );
}

interface AskPanelProps {
  text: string;
  safe: string;
  risky: string;
  safeRef: Ref<HTMLButtonElement>;
  onSafe(): void;
  onRisky(): void;
}

/** An inline question (not a modal: the progress stays in view); the safe answer comes first and holds focus. */
function AskPanel({ text, safe, risky, safeRef, onSafe, onRisky }: AskPanelProps) {
  return (
    <div class="ask" role="alertdialog" aria-labelledby="ask-text">
      <p id="ask-text">{text}</p>
      <div class="actions">
        <button type="button" ref={safeRef} class="primary" onClick={onSafe}>
          {safe}
        </button>
        <button type="button" onClick={onRisky}>
          {risky}
        </button>
      </div>
    </div>
  );
}
