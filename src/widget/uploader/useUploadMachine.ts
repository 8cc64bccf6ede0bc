import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { UploadPageBoot } from '../../shared/uploadPage';
import type { UploadProgressInfo } from '../../shared/widgetConfig';
import type { FileHandle, HandleStore } from './fileHandles';
import type { HostLink } from './hostLink';
import type { StringTable } from '../../shared/i18n/strings';
import { textsFor } from './i18n';
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
import { SpeedMeter } from './speedMeter';
import { throttle } from './throttle';
import { transportEvents } from './transportEvents';
import type { StartUpload, UploadControl } from './uploadCore';
import type * as Limits from './limits';
import type { previewVideo } from './videoPreview';
import type { RecorderKit } from './recorder';
import type { RecorderEffect, RecorderSession } from './recorder/session';
import { sniffVideoContainer } from './videoSignature';

/** The host's `onProgress` at most 10 times a second. */
const PROGRESS_PERIOD_MS = 100;

export type UploaderModel = Model<File, FileHandle>;
type UploaderEvent = UploadEvent<File, FileHandle>;
export type Send = (event: UploaderEvent) => void;

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
}

export interface Recorder {
  Panel: RecorderKit['RecordPanel'];
  status: RecorderKit['recordingStatus'];
  session: RecorderSession;
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
    if (!(await sniffVideoContainer(file))) return { type: 'checkFailed', refusal: 'notVideoContent' };
    const refused = await limits?.checkLimits(file, set, preview, texts);
    if (refused) return { type: 'checkFailed', ...refused };
    return { type: 'checked', print: await fingerprint(file) };
  } catch {
    return { type: 'checkFailed', refusal: 'unreadable' };
  }
}

/**
 * The uploader's state machine (machine.ts) wired to the page: `send` runs one transition and
 * then its effects, whose answers come back as events. Also the effects that last while a state
 * does: the host's messages, the retry after a network failure, the kept handle at opening.
 */
export function useUploadMachine(wiring: UploadWiring): {
  model: UploaderModel;
  send: Send;
  setup: MachineSetup;
  meter: SpeedMeter;
  /** The recorder's panel and session, once the person has chosen Record (its chunk loads then). */
  recorder: Recorder | undefined;
} {
  const { boot, strings, host, startUpload, fingerprint, preview, limits, now, retry } = wiring;
  const { discard, processingStatus, statusPollMs, handles } = wiring;
  const setup = useMemo<MachineSetup>(
    () => ({
      videoId: boot.videoId,
      maxFileSize: boot.maxFileSize,
      limits: boot.limits,
      sources: boot.sources,
      uploadWhileRecording: boot.uploadWhileRecording,
      retry,
      texts: textsFor(strings),
    }),
    [boot.videoId, boot.maxFileSize, boot.limits, boot.sources, boot.uploadWhileRecording, retry, strings],
  );
  const [model, setModel] = useState<UploaderModel>(() => initialModel(boot.resume));
  const [recorder, setRecorder] = useState<Recorder | undefined>(undefined);
  // The model as of the last event, for events that arrive before the next render.
  const current = useRef(model);
  const control = useRef<UploadControl | null>(null);
  // After the page has gone, no status poll is sent and no answer is taken.
  const open = useRef(true);
  const poll = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The retry policy's wait (machine.ts, afterFailure): its timer and the online watch; the first to fire ends both.
  const wait = useRef<(() => void) | undefined>(undefined);
  const meter = useMemo(() => new SpeedMeter(), []);
  const progress = useMemo(() => throttle((info: UploadProgressInfo) => host.post({ type: 'progress', info }), PROGRESS_PERIOD_MS), [host]);

  const send = useMemo(() => {
    // The recorder's states join the machine's once its chunk has loaded (the first `openSource` asks for it).
    let states: States = UPLOADER_STATES;
    const dispatch: Send = (event) => {
      const step = reduce(current.current, event, setup, states);
      current.current = step.model;
      setModel(step.model);
      for (const effect of step.effects) perform(effect);
    };
    // The recorder's chunk loads at the first `openSource`; every later effect waits for it, in order.
    let session: Promise<RecorderSession> | undefined;
    const record = (effect: RecorderEffect) => {
      // Not destructured in the parameter: Vite would then list the module's names twice.
      session ??= import('./recorder').then((kit: RecorderKit) => {
        states = { ...UPLOADER_STATES, ...kit.RECORDER_STATES };
        const made = kit.recorderSession({
          dispatch,
          stateKind: () => current.current.state.kind,
          boot,
          setup,
          startUpload,
          discard,
          setTransport: (transport) => {
            control.current = transport;
          },
        });
        setRecorder({ Panel: kit.RecordPanel, status: kit.recordingStatus, session: made });
        return made;
      });
      session.then(
        (made) => made.perform(effect),
        () => {
          // Not loaded (the network): the person may try again.
          session = undefined;
          if (effect.type === 'openSource') dispatch({ type: 'sourceFailed', failure: 'failed' });
        },
      );
    };
    const askProcessing = async () => {
      const status = await processingStatus(boot.ticket);
      if (open.current) dispatch({ type: 'processing', status });
    };
    const endWait = () => {
      wait.current?.();
      wait.current = undefined;
    };
    const retry = () => {
      endWait();
      dispatch({ type: 'retry' });
    };
    const perform = (effect: Effect<File, FileHandle>) => {
      switch (effect.type) {
        case 'retryIn': {
          const timer = setTimeout(retry, effect.ms);
          const before = wait.current;
          wait.current = () => {
            before?.();
            clearTimeout(timer);
          };
          return;
        }
        case 'watchOnline': {
          window.addEventListener('online', retry);
          const before = wait.current;
          wait.current = () => {
            before?.();
            window.removeEventListener('online', retry);
          };
          return;
        }
        case 'giveUp':
          return endWait();
        case 'post':
          return host.post(effect.message);
        case 'check': {
          const { attempt, file } = effect;
          void check(file, { fingerprint, preview, limits }, setup).then((outcome) => dispatch({ ...outcome, attempt } as UploaderEvent));
          return;
        }
        case 'start': {
          const { attempt, file, print, resume } = effect;
          control.current = startUpload(
            { file, fingerprint: print, videoId: boot.videoId, endpoint: boot.tusEndpoint, ticket: boot.ticket, resume },
            {
              onStored: (uploadUrl, offset) =>
                dispatch({ type: 'stored', resume: { uploadUrl, offset, size: file.size, fileName: file.name, fingerprint: print } }),
              ...transportEvents(dispatch, attempt, boot.tusEndpoint),
            },
          );
          return;
        }
        case 'pauseTransport':
          return control.current?.pause();
        case 'resumeTransport':
          return control.current?.resume();
        case 'stopTransport':
          control.current?.pause();
          control.current = null;
          return;
        case 'releaseTransport':
          control.current = null;
          return;
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
          void discard(effect.uploadUrl, boot.ticket).then((ok) => dispatch({ type: 'discarded', ok }));
          return;
        case 'reopen': {
          const { handle } = effect;
          void Promise.resolve(handles?.open(handle)).then((file) => dispatch({ type: 'reopened', handle, file }));
          return;
        }
        case 'askProcessing':
          if (effect.when === 'now') void askProcessing();
          else poll.current = setTimeout(() => void askProcessing(), statusPollMs);
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
    return dispatch;
  }, [
    setup,
    boot,
    host,
    startUpload,
    fingerprint,
    preview,
    limits,
    now,
    discard,
    processingStatus,
    statusPollMs,
    handles,
    meter,
    progress,
  ]);

  useEffect(
    () => () => {
      open.current = false;
      clearTimeout(poll.current);
      wait.current?.();
    },
    [],
  );

  useEffect(() => {
    host.post({ type: 'ready', valid: true });
    // `close`: the host is closing, so stop sending and the service keeps a clean offset; `askClose`: × or Escape there.
    return host.onHost((type) => send({ type: type === 'close' ? 'hostClosing' : 'closeRequested' }));
  }, [host, send]);

  // The handle kept for the unfinished upload the page opened with, if the store has one.
  useEffect(() => {
    const saved = current.current.stored;
    if (!handles || !saved) return;
    void handles.load(boot.videoId).then((handle) => handle && send({ type: 'handleFound', handle, stored: saved }));
  }, [handles, boot.videoId, send]);

  return { model, send, setup, meter, recorder };
}
