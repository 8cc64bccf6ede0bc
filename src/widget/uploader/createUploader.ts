/**
 * The uploader without a framework: the machine (machine.ts) and everything that performs its
 * effects and outlives a render — the transport, the retry policy's wait, the status poll, the
 * host's progress throttle, the speed meter and the recorder, loaded at the first Record. A view
 * reads {@link Uploader.getSnapshot} and follows {@link Uploader.subscribe} (useUploadMachine.ts
 * does it for Preact); nothing here is made again when the view renders.
 */
import type { StringTable } from '../../shared/i18n/strings';
import type { UploadPageBoot } from '../../shared/uploadPage';
import type { UploadProgressInfo } from '../../shared/widgetConfig';
import type { FileHandle, HandleStore } from './fileHandles';
import type { HostLink } from './hostLink';
import { textsFor } from './i18n';
import type * as Limits from './limits';
import {
  initialModel,
  reduce,
  UPLOADER_STATES,
  type Effect,
  type MachineSetup,
  type Model,
  type RetryPolicy,
  type States,
  type UploadEvent,
} from './machine';
import type { RecorderKit } from './recorder';
import type { RecorderEffect, RecorderSession } from './recorder/session';
import { SpeedMeter } from './speedMeter';
import { throttle } from './throttle';
import { transportEvents } from './transportEvents';
import type { StartUpload, UploadControl } from './uploadCore';
import type { previewVideo } from './videoPreview';
import { sniffContainerFamily } from './videoSignature';

/** The host's `onProgress` at most 10 times a second. */
const PROGRESS_PERIOD_MS = 100;

export type UploaderModel = Model<File, FileHandle>;
type UploaderEvent = UploadEvent<File, FileHandle>;
export type Send = (event: UploaderEvent) => void;

/** What the browser says of its connection; tests pass a double. */
interface OnlineWatch {
  online(): boolean;
  /** Returns the function that stops listening. */
  onOnline(listener: () => void): () => void;
}

const browserOnline: OnlineWatch = {
  online: () => navigator.onLine !== false,
  onOnline(listener) {
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  },
};

/** What the machine's effects are done with: the page's links to tus, the host, the service and the browser. */
export interface UploadWiring {
  boot: UploadPageBoot;
  /** Every text of the page's language, the `strings` option's in place. */
  strings: StringTable;
  host: HostLink;
  startUpload: StartUpload;
  fingerprint(file: File): Promise<string>;
  /** The chosen file's preview, which also tells its duration (shared with the Preview: read once per file). */
  preview: typeof previewVideo;
  /** The checks of the page's restrictions (limits.ts), loaded only when it sets any. */
  limits: typeof Limits | undefined;
  /** Milliseconds, for the speed estimate. */
  now: () => number;
  /** When to try again after a failure that may pass (machine.ts, afterFailure). */
  retry: RetryPolicy;
  discard: (uploadUrl: string, ticket: string) => Promise<boolean>;
  processingStatus: (ticket: string) => Promise<number | undefined>;
  statusPollMs: number;
  handles: HandleStore | undefined;
  /** @default the browser's (`navigator.onLine`, the window's `online` event) */
  network?: OnlineWatch | undefined;
}

interface Recorder {
  Panel: RecorderKit['RecordPanel'];
  status: RecorderKit['recordingStatus'];
  session: RecorderSession;
}

/** What a view shows: a new object whenever the model changes or the recorder arrives. */
export interface UploaderSnapshot {
  model: UploaderModel;
  /** The recorder's panel and session, once the person has chosen Record (its chunk loads then). */
  recorder: Recorder | undefined;
}

export interface Uploader {
  readonly setup: MachineSetup;
  readonly meter: SpeedMeter;
  send: Send;
  getSnapshot(): UploaderSnapshot;
  /** `listener` runs after each change of the snapshot; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /**
   * Tells the host the page is ready, follows its messages and looks up the kept handle of the
   * unfinished upload. Returns the function that ends it all: no timer fires and no answer is
   * taken after it.
   */
  start(): () => void;
}

/** Distributive, so each event keeps its own fields. */
type WithoutAttempt<E> = E extends unknown ? Omit<E, 'attempt'> : never;
/** The check's answer, without the attempt it belongs to. */
type CheckOutcome = WithoutAttempt<Extract<UploaderEvent, { type: 'checked' | 'checkFailed' }>>;

/**
 * Sniff the first bytes (a renamed text file is refused before it is stored), check the page's
 * restrictions when it sets any, then fingerprint.
 */
async function check(
  file: File,
  { fingerprint, preview, limits }: Pick<UploadWiring, 'fingerprint' | 'preview' | 'limits'>,
  { limits: set, texts }: MachineSetup,
): Promise<CheckOutcome> {
  try {
    if (!(await sniffContainerFamily(file))) return { type: 'checkFailed', refusal: 'notVideoContent' };
    const refused = await limits?.checkLimits(file, set, preview, texts);
    if (refused) return { type: 'checkFailed', ...refused };
    return { type: 'checked', print: await fingerprint(file) };
  } catch {
    return { type: 'checkFailed', refusal: 'unreadable' };
  }
}

/** The uploader of one page: `send` runs one transition, then its effects, whose answers come back as events. */
export function createUploader(wiring: UploadWiring): Uploader {
  const { boot, host, startUpload, now, discard, processingStatus, statusPollMs, handles, network = browserOnline } = wiring;
  const setup: MachineSetup = {
    videoId: boot.videoId,
    maxFileSize: boot.maxFileSize,
    limits: boot.limits,
    sources: boot.sources,
    uploadWhileRecording: boot.uploadWhileRecording,
    retry: wiring.retry,
    texts: textsFor(wiring.strings),
  };
  const meter = new SpeedMeter();
  const progress = throttle((info: UploadProgressInfo) => host.post({ type: 'progress', info }), PROGRESS_PERIOD_MS);
  const listeners = new Set<() => void>();
  let snapshot: UploaderSnapshot = { model: initialModel(boot.resume), recorder: undefined };
  const show = (next: Partial<UploaderSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };

  // The recorder's states join the machine's once its chunk has loaded (the first `openSource` asks for it).
  let states: States = UPLOADER_STATES;
  let control: UploadControl | null = null;
  // After `start()`'s end, no status poll is sent and no answer is taken.
  let open = true;
  let poll: ReturnType<typeof setTimeout> | undefined;
  // The retry policy's wait (machine.ts, afterFailure): its timer and the online watch; the first to fire ends both.
  let endWait: (() => void) | undefined;
  const giveUp = () => {
    endWait?.();
    endWait = undefined;
  };
  const waitAlso = (stop: () => void) => {
    const before = endWait;
    endWait = () => {
      before?.();
      stop();
    };
  };
  const retry = () => {
    giveUp();
    send({ type: 'retry' });
  };

  const send: Send = (event) => {
    const step = reduce(snapshot.model, event, setup, states);
    if (step.model !== snapshot.model) show({ model: step.model });
    for (const effect of step.effects) perform(effect);
  };

  // The recorder's chunk loads at the first `openSource`; every later effect waits for it, in order.
  let session: Promise<RecorderSession> | undefined;
  const record = (effect: RecorderEffect) => {
    // Not destructured in the parameter: Vite would then list the module's names twice.
    session ??= import('./recorder').then((kit: RecorderKit) => {
      states = { ...UPLOADER_STATES, ...kit.RECORDER_STATES };
      const made = kit.recorderSession({
        dispatch: send,
        stateKind: () => snapshot.model.state.kind,
        boot,
        setup,
        startUpload,
        discard,
        setTransport: (transport) => {
          control = transport;
        },
      });
      show({ recorder: { Panel: kit.RecordPanel, status: kit.recordingStatus, session: made } });
      return made;
    });
    session.then(
      (made) => made.perform(effect),
      () => {
        // Not loaded (the network): the person may try again.
        session = undefined;
        if (effect.type === 'openSource') send({ type: 'sourceFailed', failure: 'failed' });
      },
    );
  };

  const askProcessing = async () => {
    const status = await processingStatus(boot.ticket);
    if (open) send({ type: 'processing', status });
  };

  const perform = (effect: Effect<File, FileHandle>) => {
    switch (effect.type) {
      case 'post':
        return host.post(effect.message);
      case 'check': {
        const { attempt, file } = effect;
        void check(file, wiring, setup).then((outcome) => send({ ...outcome, attempt } as UploaderEvent));
        return;
      }
      case 'start': {
        const { attempt, file, print, resume } = effect;
        control = startUpload(
          { file, fingerprint: print, videoId: boot.videoId, endpoint: boot.tusEndpoint, ticket: boot.ticket, resume },
          {
            onStored: (uploadUrl, offset) =>
              send({ type: 'stored', resume: { uploadUrl, offset, size: file.size, fileName: file.name, fingerprint: print } }),
            ...transportEvents(send, attempt, boot.tusEndpoint, network.online),
          },
        );
        return;
      }
      case 'pauseTransport':
        return control?.pause();
      case 'resumeTransport':
        return control?.resume();
      case 'stopTransport':
        control?.pause();
        control = null;
        return;
      case 'releaseTransport':
        control = null;
        return;
      case 'retryIn': {
        const timer = setTimeout(retry, effect.ms);
        return waitAlso(() => clearTimeout(timer));
      }
      case 'watchOnline':
        return waitAlso(network.onOnline(retry));
      case 'giveUp':
        return giveUp();
      case 'saveHandle':
        void handles?.save(boot.videoId, effect.handle);
        return;
      case 'forgetHandle':
        void handles?.forget(boot.videoId);
        return;
      case 'reportProgress':
        return progress.push(effect.info);
      case 'flushProgress':
        return progress.flush();
      case 'measure':
        return meter.add(now(), effect.bytes);
      case 'resetMeter':
        return meter.reset();
      case 'discard':
        void discard(effect.uploadUrl, boot.ticket).then((ok) => send({ type: 'discarded', ok }));
        return;
      case 'reopen': {
        const { handle } = effect;
        void Promise.resolve(handles?.open(handle)).then((file) => send({ type: 'reopened', handle, file }));
        return;
      }
      case 'askProcessing':
        if (effect.when === 'now') void askProcessing();
        else poll = setTimeout(() => void askProcessing(), statusPollMs);
        return;
      case 'openSource':
      case 'closeSource':
      case 'countdown':
      case 'startRecorder':
      case 'stopRecorder':
      case 'endLive':
      case 'dropLive':
        return record(effect);
    }
  };

  return {
    setup,
    meter,
    send,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      open = true;
      host.post({ type: 'ready', valid: true });
      // `close`: the host is closing, so stop sending and the service keeps a clean offset; `askClose`: × or Escape there.
      const stopHost = host.onHost((type) => send({ type: type === 'close' ? 'hostClosing' : 'closeRequested' }));
      // The handle kept for the unfinished upload the page opened with, if the store has one.
      const saved = snapshot.model.stored;
      if (handles && saved)
        void handles.load(boot.videoId).then((handle) => handle && open && send({ type: 'handleFound', handle, stored: saved }));
      return () => {
        open = false;
        stopHost();
        clearTimeout(poll);
        giveUp();
      };
    },
  };
}
