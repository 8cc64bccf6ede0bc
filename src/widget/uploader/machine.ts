/**
 * The uploader's life as data: its states, the events that move it, and the effects each move
 * asks for. Pure: no DOM, no Preact, no timers. `createUploader.ts` performs the effects (tus,
 * postMessage, the handle store) and turns what happens back into events; the components only
 * render a {@link Model} and send events. Each state declares the events it answers and the
 * states each may lead to ({@link UPLOADER_STATES}): `reduce` runs those declarations, and the
 * state diagram in docs/widget.md is drawn from them.
 */
import type { PageMessage, WithoutEnvelope } from '../../shared/messages';
import type { ContentLimits } from '../../shared/restrictions';
import type { FailureCode } from '../../shared/resultCodes';
import type { ResumeState } from '../../shared/uploadPage';
import {
  PROCESSED_STATUSES,
  type FileRefusal,
  type RecordSource,
  type UploadFailureInfo,
  type UploadProgressInfo,
  type UploadSource,
  type WidgetCode,
} from '../../shared/widgetConfig';
import { refuseFile } from './fileChecks';
import { formatBytes } from './format';
import type { Texts } from './i18n';

/** What the machine needs of a chosen file (a `File` in the browser). */
/** The refusals of the content check, after the name, type and size passed. */
export type ContentRefusal = Exclude<FileRefusal, 'empty' | 'notVideo' | 'tooLarge'>;

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

/** What it needs of a kept file handle (a `FileSystemFileHandle` in the browser). */
export interface HandleLike {
  name: string;
}

export const STATE_KINDS = [
  'idle',
  'checking',
  // Recording (sources camera, screen): asking the browser for the camera or screen, its live
  // picture, 3-2-1, recording, and the take to keep (Upload) or drop (Retake).
  'permission',
  'preview',
  'countdown',
  'recording',
  'review',
  'uploading',
  'finishing',
  'paused',
  'offline',
  'retrying',
  'done',
  'failed',
  'cancelled',
] as const;
export type StateKind = (typeof STATE_KINDS)[number];

/** The states with a file on its way: the progress bar, Cancel, and a transport to pause or resume. */
const SENDING = ['uploading', 'finishing', 'paused', 'offline', 'retrying'] as const satisfies readonly StateKind[];
type SendingKind = (typeof SENDING)[number];
/** The states that show the file choice: nothing chosen yet, or the last choice ended. */
const PICKING = ['idle', 'failed', 'cancelled'] as const satisfies readonly StateKind[];
type PickingKind = (typeof PICKING)[number];

export type UploaderState<F extends FileLike, H extends HandleLike> =
  /** `failed`: the file was refused (by the checks or by the service); `cancelled`: by the person. */
  | { kind: PickingKind }
  /** Reading the file's first bytes and fingerprint before any request. */
  | { kind: 'checking'; file: F; handle: H | undefined }
  /**
   * `uploading`, and `finishing` once every byte is sent (the service completes the file);
   * `offline` waits for the browser to be online, `retrying` also tries again after a while.
   * `sent` is what the bar shows; `allSent` keeps `finishing` and the last progress figure from
   * going to the host twice (the transport may report the whole size more than once).
   */
  | { kind: SendingKind; file: F; sent: number; allSent: boolean }
  | { kind: 'done'; file: F }
  | { kind: 'permission' | 'preview'; source: RecordSource }
  /** `left`: the seconds still to count, 3 to 1. */
  | { kind: 'countdown'; source: RecordSource; left: number }
  /** `stopping`: Stop was pressed (or the tab hidden, the share ended); the recorder hands over its last data. */
  | { kind: 'recording'; source: RecordSource; elapsedMs: number; bytes: number; stopping: boolean }
  | { kind: 'review'; source: RecordSource; file: F; durationMs: number };

/** Why the browser gave no camera or screen: refused by the person or a policy, no such device, or anything else. */
export type SourceFailure = 'denied' | 'noDevice' | 'failed';
/** Why a recording stopped: Stop, the page hidden (another tab, the phone locked), or the shared screen or camera gone. */
type StopReason = 'stop' | 'hidden' | 'ended';

/**
 * The upload that runs while recording (`uploadWhileRecording`): its attempt number, the upload's
 * address once created, what it sent, what the service confirmed, and whether it waits for the network.
 */
interface LiveUpload {
  attempt: number;
  url: string | undefined;
  sent: number;
  confirmed: number;
  waiting: boolean;
}

/** A question that must be answered before anything is lost: closing mid-upload, discarding, replacing stored bytes. */
export type Question<F extends FileLike, H extends HandleLike> =
  { kind: 'close' } | { kind: 'discard' } | { kind: 'replace'; file: F; print: string; handle: H | undefined };

interface Notice {
  tone: 'error' | 'info';
  text: string;
}

export interface Model<F extends FileLike = FileLike, H extends HandleLike = HandleLike> {
  state: UploaderState<F, H>;
  /**
   * The upload the service holds for this video: from the page at first, then whichever this page
   * created or resumed, so a cancelled upload continues when the same file is chosen again.
   */
  stored: ResumeState | null;
  /** The kept handle of the unfinished upload's file, offered as "Continue “big.mp4” from 37 %". */
  keptHandle: H | undefined;
  question: Question<F, H> | null;
  notice: Notice | null;
  /** Each chosen file and each start gets a new number; events of an abandoned one carry an older number and are dropped. */
  attempt: number;
  /** onError reports an outage once, not again for each automatic attempt that fails during it. */
  outageReported: boolean;
  /** Failures in a row of the running upload, without the service confirming more bytes: what the retry policy counts. */
  failures: number;
  /** A retry waits (its timer, the browser back online): `giveUp` ends the wait when this goes. */
  waiting: boolean;
  /** The video's status after the upload, as the service last reported it. */
  videoStatus: number | undefined;
  /** The upload sent while recording, until the take is kept (it becomes the upload) or dropped. */
  liveUpload: LiveUpload | null;
}

export type UploadEvent<F extends FileLike = FileLike, H extends HandleLike = HandleLike> =
  /** A file picked, dropped, pasted or reopened from its handle. */
  | { type: 'choose'; file: F; handle?: H | undefined }
  | { type: 'checked'; attempt: number; print: string }
  /** The content check refused the file; `values` are those its text names beside the file's (limits.ts). */
  | { type: 'checkFailed'; attempt: number; refusal: ContentRefusal; values?: Record<string, string> | undefined }
  /** The service holds `resume.offset` bytes of the file (created, resumed or a chunk confirmed). */
  | { type: 'stored'; resume: ResumeState }
  | { type: 'progress'; attempt: number; sent: number }
  | { type: 'succeeded'; attempt: number }
  /** The service said no (4xx): `code` is its ResultCode when the reply carried one, `requestId` its X-Request-Id. */
  | { type: 'refused'; attempt: number; code: FailureCode | undefined; requestId?: string | undefined }
  /**
   * A request failed in a way that may pass (no reply, a 5xx, a passing conflict, a stall, the
   * browser offline) and the transport has stopped; `online` is what the browser says now. The
   * retry policy decides what follows.
   */
  | { type: 'networkError'; attempt: number; bytesUploaded: number; online: boolean }
  /**
   * The page's origin reaches the service's pages but not its upload path (a proxy that does not
   * pass it on): no retry can help. `serviceOrigin` is the origin of the endpoint the service
   * advertised (its PUBLIC_URL), `uploadPath` the path the requests went to on the page's origin.
   */
  | { type: 'unreachable'; attempt: number; pageOrigin: string; serviceOrigin: string; uploadPath: string }
  | { type: 'pause' }
  /** Resume, Try again. */
  | { type: 'resume' }
  /** The retry policy's wait is over: its timer ran out, or the browser is back online (`retryIn`, `watchOnline`). */
  | { type: 'retry' }
  | { type: 'cancel' }
  /** × or Escape on the host (`askClose`), Escape inside with no question open, Close after the upload. */
  | { type: 'closeRequested' }
  /** The host is closing the widget (`close`): stop sending so the service keeps a clean offset. */
  | { type: 'hostClosing' }
  /** Escape inside the overlay's iframe, which the host page never sees. */
  | { type: 'escape' }
  | { type: 'askDiscard' }
  /** Keep uploading, Keep it. */
  | { type: 'answerSafe' }
  /** Stop and close, Discard upload, Upload the new file. */
  | { type: 'answerRisky' }
  | { type: 'discarded'; ok: boolean }
  | { type: 'continueKept' }
  /** The kept handle's file, or undefined when the browser would not read it again. */
  | { type: 'reopened'; handle: H; file: F | undefined }
  /** The handle store held one for `stored` (looked up once, when the page opens). */
  | { type: 'handleFound'; handle: H; stored: ResumeState }
  | { type: 'processing'; status: number | undefined }
  /** Record with the camera, or the screen. */
  | { type: 'record'; source: RecordSource }
  | { type: 'sourceReady' }
  | { type: 'sourceFailed'; failure: SourceFailure }
  | { type: 'startCountdown' }
  /** One second of the countdown has passed. */
  | { type: 'tick' }
  /** The recorder's figures, about once a second. */
  | { type: 'recorded'; attempt: number; bytes: number; elapsedMs: number }
  | { type: 'stopRecording'; reason: StopReason }
  /** The recorder has handed over everything: the take. */
  | { type: 'recordingEnded'; attempt: number; file: F; durationMs: number }
  /** Upload the take. */
  | { type: 'keep' }
  | { type: 'retake' }
  /** Leave recording for the file choice (Cancel), dropping whatever was recorded. */
  | { type: 'cancelRecording' }
  /** The upload sent while recording has an address. */
  | { type: 'liveStored'; attempt: number; uploadUrl: string; offset: number };

export type Effect<F extends FileLike = FileLike, H extends HandleLike = HandleLike> =
  | { type: 'post'; message: WithoutEnvelope<PageMessage> }
  /** Sniff the first bytes, check the page's restrictions, then fingerprint: answered by `checked` or `checkFailed`. */
  | { type: 'check'; attempt: number; file: F }
  /** Start the transport; its events carry `attempt`. */
  | { type: 'start'; attempt: number; file: F; print: string; resume: ResumeState | null }
  | { type: 'pauseTransport' }
  | { type: 'resumeTransport' }
  /** Pause it and let it go: nothing it reports matters any more (Cancel). */
  | { type: 'stopTransport' }
  /** It has ended by itself (success, refusal): let it go. */
  | { type: 'releaseTransport' }
  | { type: 'saveHandle'; handle: H }
  | { type: 'forgetHandle' }
  /** To the host's `onProgress`, at most 10 times a second. */
  | { type: 'reportProgress'; info: UploadProgressInfo }
  /** Send the figure still held back at once, before a message that must follow it. */
  | { type: 'flushProgress' }
  /** A timed sample for the speed estimate. */
  | { type: 'measure'; bytes: number }
  | { type: 'resetMeter' }
  /** tus DELETE of the stored upload: answered by `discarded`. */
  | { type: 'discard'; uploadUrl: string }
  /** Ask the browser for the handle's file again: answered by `reopened`. */
  | { type: 'reopen'; handle: H }
  /** Ask the service how processing goes, now or after the poll interval: answered by `processing`. */
  | { type: 'askProcessing'; when: 'now' | 'later' }
  /** Ask the browser for the camera and microphone, or the screen: answered by `sourceReady` or `sourceFailed`. */
  | { type: 'openSource'; source: RecordSource }
  /** Let the camera or screen go, with any recorder on it; what it recorded is dropped. */
  | { type: 'closeSource' }
  /** Send `tick` in a second. */
  | { type: 'countdown' }
  /**
   * Start recording; its events carry `attempt`. With `uploadWhileRecording`, also start an upload of deferred
   * length fed by the recorder as it records (the transport's events carry the same attempt).
   */
  | { type: 'startRecorder'; attempt: number; uploadWhileRecording: boolean }
  /** Stop recording: answered by `recordingEnded`. */
  | { type: 'stopRecorder' }
  /** The recording is whole: the upload sent while recording sends the rest and declares the length. */
  | { type: 'endLive' }
  /** Stop the upload sent while recording and delete what the service holds of it (tus DELETE). */
  | { type: 'dropLive'; uploadUrl: string | undefined }
  /** Send `retry` after `ms`, or sooner when a `watchOnline` of the same wait sees the browser online. */
  | { type: 'retryIn'; ms: number }
  /** Send `retry` when the browser says it is online again. */
  | { type: 'watchOnline' }
  /** Stop waiting to try again: drop the timer and the online watch (the first `retry` ends the wait too). */
  | { type: 'giveUp' };

/** Fixed for one page: who the messages are about, the limits, where videos may come from, and the words. */
export interface MachineSetup {
  videoId: string;
  /** Bytes: the service's limit, or the page's `maxFileSize` when smaller. */
  maxFileSize: number;
  /** The page's `accept`, `minDuration` and `maxDuration` (a recording stops at `maxDuration` too). */
  limits: ContentLimits;
  /** The `sources` option: recording is offered only for those it names. */
  sources: readonly UploadSource[];
  uploadWhileRecording: boolean;
  retry: RetryPolicy;
  texts: Texts;
}

/**
 * When to try again after a failure that may pass: after each of `delays` in turn, quietly; after
 * that the person and the host hear of it, and the upload goes on by itself when the browser is
 * back online, and every `everyMs` while it is online (the service may be back).
 */
export interface RetryPolicy {
  delays: readonly number[];
  everyMs: number;
}

/** After 0, 1, 3, 5 and 10 s, then every 10 s. */
export const RETRY_POLICY: RetryPolicy = { delays: [0, 1000, 3000, 5000, 10_000], everyMs: 10_000 };

export interface Step<F extends FileLike, H extends HandleLike> {
  model: Model<F, H>;
  effects: Effect<F, H>[];
}

export function initialModel<F extends FileLike, H extends HandleLike>(stored: ResumeState | null): Model<F, H> {
  return {
    state: { kind: 'idle' },
    stored,
    keptHandle: undefined,
    question: null,
    notice: null,
    attempt: 0,
    outageReported: false,
    failures: 0,
    waiting: false,
    videoStatus: undefined,
    liveUpload: null,
  };
}

type Sending<F extends FileLike, H extends HandleLike> = Extract<UploaderState<F, H>, { kind: SendingKind }>;

export function isSending<F extends FileLike, H extends HandleLike>(state: UploaderState<F, H>): state is Sending<F, H> {
  return (SENDING as readonly StateKind[]).includes(state.kind);
}

export function isPicking(state: { kind: StateKind }): boolean {
  return (PICKING as readonly StateKind[]).includes(state.kind);
}

/** Bytes are moving (or the service is completing them): closing asks first, and leaving the popup too. */
export function isMoving(state: { kind: StateKind }): boolean {
  return state.kind === 'uploading' || state.kind === 'finishing';
}

/** The open question, if any: a close question is moot once nothing moves (the upload finished or failed meanwhile). */
export function askingNow<F extends FileLike, H extends HandleLike>(model: Model<F, H>): Question<F, H> | null {
  const { question } = model;
  return question && (question.kind !== 'close' || isMoving(model.state)) ? question : null;
}

/**
 * What the screen shows, which is coarser than the state: `finishing` looks like `uploading`,
 * `offline` like `retrying`, and the three picking states alike. Focus moves when this changes.
 */
export type Screen = 'picker' | 'checking' | 'sending' | 'paused' | 'waiting' | 'done' | RecordingKind;
/** The recorder's states, each a screen of its own. */
export type RecordingKind = 'permission' | 'preview' | 'countdown' | 'recording' | 'review';
export function screenOf(state: { kind: StateKind }): Screen {
  switch (state.kind) {
    case 'permission':
    case 'preview':
    case 'countdown':
    case 'recording':
    case 'review':
      return state.kind;
    case 'idle':
    case 'failed':
    case 'cancelled':
      return 'picker';
    case 'checking':
      return 'checking';
    case 'uploading':
    case 'finishing':
      return 'sending';
    case 'paused':
      return 'paused';
    case 'offline':
    case 'retrying':
      return 'waiting';
    case 'done':
      return 'done';
  }
}

const fileInfo = (setup: MachineSetup, file: FileLike) => ({ videoId: setup.videoId, fileName: file.name, fileSize: file.size });
export const post = <F extends FileLike, H extends HandleLike>(message: WithoutEnvelope<PageMessage>): Effect<F, H> => ({
  type: 'post',
  message,
});
const FINAL_STATUSES: readonly number[] = PROCESSED_STATUSES;

/**
 * The file is refused before any byte is sent: say why (the refusal is its text's key; the text
 * names the file, and the limit it missed), and tell the host which check it failed.
 */
function refuse<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  setup: MachineSetup,
  file: F,
  refusal: FileRefusal,
  values: Record<string, string> = {},
): Step<F, H> {
  const { texts: t } = setup;
  const max: Record<string, string> = refusal === 'tooLarge' ? { max: formatBytes(setup.maxFileSize, t) } : {};
  const text = t.fill(refusal, { ...values, ...max, name: file.name });
  return {
    model: { ...model, state: { kind: 'failed' }, notice: { tone: 'error', text } },
    effects: [post({ type: 'failure', info: { ...fileInfo(setup, file), reason: 'rejected', code: refusal, message: text } })],
  };
}

function choose<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  setup: MachineSetup,
  file: F,
  handle: H | undefined,
): Step<F, H> {
  if (!isPicking(model.state)) return { model, effects: [] };
  const refusal = refuseFile(file, setup.maxFileSize);
  if (refusal) return refuse(model, setup, file, refusal);
  const attempt = model.attempt + 1;
  return {
    model: { ...model, attempt, notice: null, state: { kind: 'checking', file, handle } },
    effects: [{ type: 'check', attempt, file }],
  };
}

function begin<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  file: F,
  print: string,
  resume: ResumeState | null,
  handle: H | undefined,
): Step<F, H> {
  const attempt = model.attempt + 1;
  return {
    model: {
      ...model,
      attempt,
      keptHandle: undefined,
      failures: 0,
      waiting: false,
      state: { kind: 'uploading', file, sent: resume?.offset ?? 0, allSent: false },
    },
    effects: [
      // Kept for this video while its upload is unfinished; a file chosen without a handle drops an older one.
      handle ? { type: 'saveHandle', handle } : { type: 'forgetHandle' },
      { type: 'resetMeter' },
      post({ type: 'uploading', busy: true }),
      { type: 'start', attempt, file, print, resume },
    ],
  };
}

function checked<F extends FileLike, H extends HandleLike>(model: Model<F, H>, print: string): Step<F, H> {
  if (model.state.kind !== 'checking') return { model, effects: [] };
  const { file, handle } = model.state;
  const saved = model.stored;
  const resume = saved && saved.fingerprint === print && saved.size === file.size && saved.fileName === file.name ? saved : null;
  // Another file would replace the bytes the service holds: ask before they are lost.
  if (saved && !resume && saved.offset > 0)
    return { model: { ...model, state: { kind: 'idle' }, question: { kind: 'replace', file, print, handle } }, effects: [] };
  return begin(model, file, print, resume, handle);
}

function progress<F extends FileLike, H extends HandleLike>(model: Model<F, H>, state: Sending<F, H>, sent: number): Step<F, H> {
  const effects: Effect<F, H>[] = [{ type: 'measure', bytes: sent }];
  // Paused or waiting, the bar keeps the figure it had; a late report only counts for the host.
  let next: Sending<F, H> = isMoving(state) ? { ...state, sent } : state;
  // Once every byte is sent, repeats of the whole size are no news to the host.
  if (!state.allSent) {
    effects.push({ type: 'reportProgress', info: { bytesUploaded: sent, bytesTotal: state.file.size } });
    // Every byte sent: the service completes the file; the last figure goes out before this.
    if (sent === state.file.size) {
      next = { ...next, allSent: true, kind: next.kind === 'uploading' ? 'finishing' : next.kind };
      effects.push({ type: 'flushProgress' }, post({ type: 'state', info: { state: 'finishing' } }));
    }
  }
  return { model: { ...model, outageReported: false, state: next }, effects };
}

function networkError<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  setup: MachineSetup,
  state: Sending<F, H>,
  bytesUploaded: number,
  online: boolean,
): Step<F, H> {
  const { texts: t } = setup;
  const policy = afterFailure(model, setup, online);
  if (!policy.news) return policy;
  const waiting = online ? 'retrying' : 'offline';
  const effects: Effect<F, H>[] = [post({ type: 'uploading', busy: false }), post({ type: 'state', info: { state: waiting } })];
  if (!model.outageReported)
    effects.push(
      post({ type: 'error', info: { ...fileInfo(setup, state.file), reason: 'network', message: t.networkError, bytesUploaded } }),
    );
  return {
    model: {
      ...policy.model,
      // The screen shows what the service confirmed, the same figure onError reports.
      state: { ...state, kind: waiting, sent: bytesUploaded },
      notice: { tone: 'error', text: t.networkError },
      outageReported: true,
    },
    effects: [...effects, ...policy.effects],
  };
}

/**
 * The retry policy ({@link RetryPolicy}), the only place that decides when to try again: a
 * failure that may pass is tried again quietly while online and the delays last; after that it is
 * `news` for the person and the host, and the upload waits for the browser to be online, and
 * while online also for `everyMs`.
 */
export function afterFailure<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  { retry }: MachineSetup,
  online: boolean,
): Step<F, H> & { news: boolean } {
  const failures = model.failures + 1;
  const delay = online ? retry.delays[failures - 1] : undefined;
  const next = { ...model, failures, waiting: true };
  if (delay !== undefined) return { model: next, effects: [{ type: 'retryIn', ms: delay }], news: false };
  return {
    model: next,
    effects: [...(online ? [{ type: 'retryIn', ms: retry.everyMs } as const] : []), { type: 'watchOnline' }],
    news: true,
  };
}

/** The upload ended without the file: the transport is let go, and the host hears why. */
function failed<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  setup: MachineSetup,
  sending: Sending<F, H>,
  text: string,
  info: Pick<UploadFailureInfo, 'reason' | 'code' | 'requestId'>,
): Step<F, H> {
  return {
    model: { ...model, state: { kind: 'failed' }, notice: { tone: 'error', text }, waiting: false },
    effects: [
      { type: 'releaseTransport' },
      post({ type: 'uploading', busy: false }),
      post({ type: 'failure', info: { ...fileInfo(setup, sending.file), ...info, message: text } }),
    ],
  };
}

function pause<F extends FileLike, H extends HandleLike>(model: Model<F, H>): Step<F, H> {
  const { state } = model;
  if (!isSending(state) || !isMoving(state)) return { model, effects: [] };
  return {
    model: { ...model, state: { ...state, kind: 'paused' }, waiting: false },
    effects: [
      { type: 'pauseTransport' },
      { type: 'resetMeter' },
      post({ type: 'uploading', busy: false }),
      post({ type: 'state', info: { state: 'paused' } }),
    ],
  };
}

function closeRequested<F extends FileLike, H extends HandleLike>(model: Model<F, H>): Step<F, H> {
  if (isMoving(model.state)) return { model: { ...model, question: { kind: 'close' } }, effects: [] };
  return { model, effects: [post({ type: 'close' })] };
}

function answerRisky<F extends FileLike, H extends HandleLike>(model: Model<F, H>): Step<F, H> {
  const asking = askingNow(model);
  const unasked = { ...model, question: null };
  if (!asking) return { model, effects: [] };
  if (asking.kind === 'close') {
    const stopped = pause(unasked);
    return { model: stopped.model, effects: [...stopped.effects, post({ type: 'close' })] };
  }
  if (asking.kind === 'discard')
    return { model: unasked, effects: model.stored ? [{ type: 'discard', uploadUrl: model.stored.uploadUrl }] : [] };
  return begin(unasked, asking.file, asking.print, null, asking.handle);
}

/** The recorder's states: leaving any of them lets the camera or screen go. */
const RECORDING = ['permission', 'preview', 'countdown', 'recording', 'review'] as const satisfies readonly StateKind[];

export function isRecording<F extends FileLike, H extends HandleLike>(
  state: UploaderState<F, H>,
): state is Extract<UploaderState<F, H>, { kind: (typeof RECORDING)[number] }> {
  return (RECORDING as readonly StateKind[]).includes(state.kind);
}

/** The upload sent while recording, when an event is of its attempt. */
export function liveUploadOf<F extends FileLike, H extends HandleLike>(model: Model<F, H>, attempt: number): LiveUpload | null {
  return model.liveUpload?.attempt === attempt ? model.liveUpload : null;
}

type EventType = UploadEvent['type'];
/** A model in a state of kind `K`. */
type In<K extends StateKind, F extends FileLike = FileLike, H extends HandleLike = HandleLike> = Model<F, H> & {
  state: UploaderState<F, H> & { kind: K };
};

/**
 * What a state does on one event: `run` makes the step, `to` lists the states it may lead to,
 * each with what decides it (shown in the diagram) or `true`. A step to a state not listed is not
 * taken, so the table is the behaviour; without `to` the event keeps the state.
 */
export interface Arrow<in K extends StateKind, E extends EventType> {
  to?: Partial<Record<StateKind, true | string>>;
  run<F extends FileLike, H extends HandleLike>(
    model: In<K, F, H>,
    event: Extract<UploadEvent<F, H>, { type: E }>,
    setup: MachineSetup,
  ): Step<F, H>;
}

/** The events a state answers; any other is answered by {@link ANY_STATE}, or not at all. */
export type StateNode<in K extends StateKind> = { [E in EventType]?: Arrow<K, E> };
/** The machine's states, each declaring its own transitions (the recorder's come with its chunk). */
export type States = { [K in StateKind]?: StateNode<K> };

/** Events of the running attempt only: those of an abandoned one are dropped. */
const ofAttempt = <K extends StateKind, E extends Extract<EventType, 'checked' | 'checkFailed' | TransportEventType>>({
  to,
  run,
}: Arrow<K, E>): Arrow<K, E> => ({
  to,
  run: (model, event, setup) =>
    (event as { attempt: number }).attempt === model.attempt ? run(model, event, setup) : { model, effects: [] },
});

type TransportEventType =
  'progress' | 'succeeded' | 'refused' | 'networkError' | 'unreachable' | 'liveStored' | 'recorded' | 'recordingEnded';

const REFUSED = 'empty, not a video, too large';

/** The file choice: nothing chosen yet, or the last choice ended. */
const picking: StateNode<PickingKind> = {
  choose: { to: { checking: true, failed: REFUSED }, run: (model, event, setup) => choose(model, setup, event.file, event.handle) },
  reopened: { to: { checking: true, failed: REFUSED }, run: reopened },
  record: {
    to: { permission: true },
    run: (model, { source }, setup) =>
      setup.sources.includes(source)
        ? { model: { ...model, notice: null, state: { kind: 'permission', source } }, effects: [{ type: 'openSource', source }] }
        : { model, effects: [] },
  },
};

/** Every byte stored: done, the host hears it, processing is asked about. */
function succeeded<F extends FileLike, H extends HandleLike>(model: Model<F, H>, setup: MachineSetup, { file }: Sending<F, H>): Step<F, H> {
  return {
    model: { ...model, stored: null, state: { kind: 'done', file }, waiting: false },
    effects: [
      { type: 'forgetHandle' },
      { type: 'releaseTransport' },
      post({ type: 'success', info: fileInfo(setup, file) }),
      { type: 'askProcessing', when: 'now' },
    ],
  };
}

/** Every state with a file on its way. */
const sending: StateNode<SendingKind> = {
  progress: ofAttempt({ run: (model, event) => progress(model, model.state, event.sent) }),
  succeeded: ofAttempt({ to: { done: true }, run: (model, _event, setup) => succeeded(model, setup, model.state) }),
  refused: ofAttempt({
    to: { failed: true },
    run: (model, { code, requestId }, setup) =>
      failed(model, setup, model.state, setup.texts.serverRefused(code), {
        reason: 'server',
        ...(code ? { code } : {}),
        ...(requestId ? { requestId } : {}),
      }),
  }),
  // A setting to change, as a refused configuration is: `done` rejects at once.
  unreachable: ofAttempt({
    to: { failed: true },
    run: (model, { pageOrigin, serviceOrigin, uploadPath }, setup) =>
      failed(model, setup, model.state, setup.texts.fill('unreachable', { pageOrigin, serviceOrigin, uploadPath }), {
        reason: 'validation',
        code: 'unreachable' satisfies WidgetCode,
      }),
  }),
  cancel: {
    to: { cancelled: true },
    run: (model, _event, { texts: t }) => ({
      model: {
        ...model,
        attempt: model.attempt + 1,
        state: { kind: 'cancelled' },
        notice: { tone: 'info', text: t.canceled },
        waiting: false,
      },
      effects: [{ type: 'stopTransport' }, post({ type: 'uploading', busy: false })],
    }),
  },
};

/** Bytes moving, or the service completing them. */
const moving: StateNode<'uploading' | 'finishing'> = {
  ...sending,
  progress: { to: { finishing: 'every byte sent' }, run: sending.progress!.run },
  networkError: ofAttempt({
    to: { offline: true, retrying: true },
    run: (model, event, setup) => networkError(model, setup, model.state, event.bytesUploaded, event.online),
  }),
  // The policy's quiet wait is over: the transport starts again from what the service holds.
  retry: { run: (model) => ({ model: { ...model, waiting: false }, effects: model.waiting ? [{ type: 'resumeTransport' }] : [] }) },
  pause: { to: { paused: true }, run: pause },
  answerRisky: { to: { paused: 'stop and close' }, run: answerRisky },
};

/** Paused by the person, or waiting for the network. */
const stopped: StateNode<'paused' | 'offline' | 'retrying'> = {
  ...sending,
  resume: { to: { uploading: true, finishing: true }, run: resume },
};

/** Waiting for the network: the end of the retry policy's wait resumes, as Try again does. */
const waiting: StateNode<'offline' | 'retrying'> = {
  ...stopped,
  retry: { to: { uploading: true, finishing: true }, run: (model) => (model.waiting ? resume(model) : { model, effects: [] }) },
};

/** Bytes move again: Resume, Try again, or the end of an outage's wait. */
function resume<F extends FileLike, H extends HandleLike>(model: In<'paused' | 'offline' | 'retrying', F, H>): Step<F, H> {
  return {
    model: { ...model, notice: null, waiting: false, state: { ...model.state, kind: model.state.allSent ? 'finishing' : 'uploading' } },
    effects: [post({ type: 'uploading', busy: true }), post({ type: 'state', info: { state: 'resumed' } }), { type: 'resumeTransport' }],
  };
}

/** The uploader's states but the recorder's (recorder/transitions.ts, registered when its chunk loads). */
export const UPLOADER_STATES: States = {
  idle: { ...picking, answerRisky: { to: { uploading: 'replace' }, run: answerRisky } },
  failed: picking,
  cancelled: picking,
  checking: {
    checked: ofAttempt({
      to: { uploading: true, idle: 'asks before replacing stored bytes' },
      run: (model, event) => checked(model, event.print),
    }),
    checkFailed: ofAttempt({
      to: { failed: "not a video inside, unreadable, outside the page's restrictions" },
      run: (model, event, setup) => refuse(model, setup, model.state.file, event.refusal, event.values),
    }),
  },
  uploading: moving,
  finishing: moving,
  paused: stopped,
  offline: waiting,
  retrying: waiting,
  done: {
    processing: {
      run: (model, { status }, setup) => {
        const next = status === undefined ? model : { ...model, videoStatus: status };
        // Processing has ended: 1 ready to play, 4 or 7 failed; else ask again later.
        if (status === undefined || !FINAL_STATUSES.includes(status))
          return { model: next, effects: [{ type: 'askProcessing', when: 'later' }] };
        return {
          model: next,
          effects: [post({ type: 'processed', info: { videoId: setup.videoId, status: status as (typeof PROCESSED_STATUSES)[number] } })],
        };
      },
    },
  },
};

function reopened<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  event: Extract<UploadEvent<F, H>, { type: 'reopened' }>,
  setup: MachineSetup,
): Step<F, H> {
  if (event.file) return choose(model, setup, event.file, event.handle);
  return {
    model: { ...model, keptHandle: undefined, notice: { tone: 'error', text: setup.texts.reopenFailed(event.handle.name) } },
    effects: [],
  };
}

/** The events every state answers the same way, which never change the state. */
const ANY_STATE: StateNode<StateKind> = {
  // More bytes confirmed: the policy counts failures anew.
  stored: {
    run: (model, { resume }) => {
      const before = model.stored;
      const grew = !before || before.uploadUrl !== resume.uploadUrl || resume.offset > before.offset;
      return { model: { ...model, stored: resume, failures: grew ? 0 : model.failures }, effects: [] };
    },
  },
  closeRequested: { run: closeRequested },
  // Stop sending so the service keeps a clean offset.
  hostClosing: { run: (model) => ({ model, effects: [{ type: 'pauseTransport' }] }) },
  // An open question gets its safe answer; else the same as × on the host.
  escape: { run: (model) => (askingNow(model) ? { model: { ...model, question: null }, effects: [] } : closeRequested(model)) },
  askDiscard: { run: (model) => ({ model: { ...model, question: { kind: 'discard' } }, effects: [] }) },
  answerSafe: { run: (model) => ({ model: { ...model, question: null }, effects: [] }) },
  answerRisky: { run: answerRisky },
  discarded: {
    run: (model, event, { texts: t }) =>
      event.ok
        ? {
            model: { ...model, stored: null, keptHandle: undefined, notice: { tone: 'info', text: t.discarded } },
            effects: [{ type: 'forgetHandle' }],
          }
        : { model: { ...model, notice: { tone: 'error', text: t.discardFailed } }, effects: [] },
  },
  continueKept: { run: (model) => ({ model, effects: model.keptHandle ? [{ type: 'reopen', handle: model.keptHandle }] : [] }) },
  reopened: { run: reopened },
  handleFound: {
    run: (model, event) => ({
      model: event.stored === model.stored && event.handle.name === event.stored.fileName ? { ...model, keptHandle: event.handle } : model,
      effects: [],
    }),
  },
};

/**
 * One step: the next model, and what must be done for it, in order. The state's own arrow for
 * the event answers it, else {@link ANY_STATE}'s; a step to a state the arrow does not list is not
 * taken. `states` are {@link UPLOADER_STATES} with the recorder's once they are registered: until
 * then, a recorder's event changes nothing.
 */
export function reduce<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  event: UploadEvent<F, H>,
  setup: MachineSetup,
  states: States = UPLOADER_STATES,
): Step<F, H> {
  const { kind } = model.state;
  const arrow = (states[kind]?.[event.type] ?? ANY_STATE[event.type]) as Arrow<StateKind, EventType> | undefined;
  const step = arrow?.run(model as In<StateKind, F, H>, event as never, setup);
  const next = step?.model.state.kind;
  if (!step || (next !== kind && !arrow?.to?.[next!])) return { model, effects: [] };
  // A wait for a retry that is over, or no longer wanted (paused, cancelled, ended), stops first.
  return model.waiting && !step.model.waiting ? { model: step.model, effects: [{ type: 'giveUp' }, ...step.effects] } : step;
}

/** One row of the transition table: from any of `from`, on `on`, to one of `to` (which one depends on the event's data). */
export interface Transition {
  from: readonly StateKind[];
  on: EventType;
  to: readonly StateKind[];
  /** When the target depends on the data, what decides it (shown in the diagram). */
  note?: string;
}

/** Every change of state the states declare (events that keep the state are left out), for the diagram in docs/widget.md. */
export function transitionsOf(states: States): Transition[] {
  const rows: Transition[] = [];
  for (const from of STATE_KINDS) {
    for (const [on, arrow] of Object.entries(states[from] ?? {}) as [EventType, Arrow<StateKind, EventType>][]) {
      for (const [to, note] of Object.entries(arrow.to ?? {}) as [StateKind, true | string][])
        if (to !== from) rows.push({ from: [from], on, to: [to], ...(note === true ? {} : { note }) });
    }
  }
  return rows;
}
