/**
 * The uploader's machine (machine.ts) from the person's Record on: permission, the live picture,
 * 3-2-1, recording, the take to keep or drop, and the upload sent while recording. Pure, as the
 * rest of the machine, whose states and model these are; a module of their own only so that they
 * load with the recorder's chunk, which registers them (machine.ts, `States`).
 */
import type { RecordSource } from '../../../shared/widgetConfig';
import {
  afterFailure,
  liveUploadOf,
  post,
  type Arrow,
  type Effect,
  type FileLike,
  type HandleLike,
  type MachineSetup,
  type Model,
  type RecordingKind,
  type SourceFailure,
  type StateNode,
  type States,
  type Step,
  type UploadEvent,
  type UploaderState,
} from '../machine';

/** Drops the take and the upload sent while recording, if any: later events of either are stale. */
function dropTake<F extends FileLike, H extends HandleLike>(model: Model<F, H>): { model: Model<F, H>; effects: Effect<F, H>[] } {
  return {
    model: { ...model, attempt: model.attempt + 1, liveUpload: null, notice: null, waiting: false },
    effects: model.liveUpload ? [{ type: 'dropLive', uploadUrl: model.liveUpload.url }] : [],
  };
}

function sourceFailure(setup: MachineSetup, source: RecordSource, failure: SourceFailure): string {
  const { texts: t } = setup;
  if (failure === 'denied') return source === 'camera' ? t.cameraDenied : t.screenDenied;
  return failure === 'noDevice' ? t.noCamera : t.recordFailed;
}

/** After 3, 2, 1: recording, and with `uploadWhileRecording` its upload, under a new attempt. */
function countdownTick<F extends FileLike, H extends HandleLike>(
  model: Model<F, H>,
  setup: MachineSetup,
  state: Extract<UploaderState<F, H>, { kind: 'countdown' }>,
): Step<F, H> {
  if (state.left > 1) return { model: { ...model, state: { ...state, left: state.left - 1 } }, effects: [{ type: 'countdown' }] };
  const attempt = model.attempt + 1;
  const { uploadWhileRecording } = setup;
  return {
    model: {
      ...model,
      attempt,
      liveUpload: uploadWhileRecording ? { attempt, url: undefined, sent: 0, confirmed: 0, waiting: false } : null,
      failures: 0,
      waiting: false,
      state: { kind: 'recording', source: state.source, elapsedMs: 0, bytes: 0, stopping: false },
    },
    effects: [{ type: 'startRecorder', attempt, uploadWhileRecording }],
  };
}

/**
 * Upload the take: the upload sent while recording sends what is left and declares the length
 * (it becomes the upload, so its events count from here as any upload's); without one, the take
 * is checked and uploaded as a chosen file is.
 */
function keep<F extends FileLike, H extends HandleLike>(model: Model<F, H>, file: F): Step<F, H> {
  const live = model.liveUpload;
  if (live)
    return {
      model: {
        ...model,
        liveUpload: null,
        notice: live.waiting ? model.notice : null,
        state: { kind: live.waiting ? 'retrying' : 'uploading', file, sent: live.sent, allSent: false },
      },
      effects: [
        { type: 'closeSource' },
        { type: 'resetMeter' },
        ...(live.waiting ? [] : [post<F, H>({ type: 'uploading', busy: true })]),
        { type: 'endLive' },
      ],
    };
  const attempt = model.attempt + 1;
  return {
    model: { ...model, attempt, notice: null, state: { kind: 'checking', file, handle: undefined } },
    effects: [{ type: 'closeSource' }, { type: 'check', attempt, file }],
  };
}

const same = <F extends FileLike, H extends HandleLike>(model: Model<F, H>): Step<F, H> => ({ model, effects: [] });

/** Leave recording for the file choice (Cancel), dropping whatever was recorded. */
const cancelRecording: Arrow<RecordingKind, 'cancelRecording'> = {
  to: { idle: true },
  run: (model) => {
    const dropped = dropTake(model);
    return { model: { ...dropped.model, state: { kind: 'idle' } }, effects: [{ type: 'closeSource' }, ...dropped.effects] };
  },
};

/** Before recording starts there is nothing to keep: back to the choice. */
const stopBeforeRecording: Arrow<'preview' | 'countdown', 'stopRecording'> = {
  to: { idle: 'the camera or share gone' },
  run: (model, event, setup) => ({
    model: { ...model, state: { kind: 'idle' }, notice: cutNotice(setup, event.reason) },
    effects: [{ type: 'closeSource' }],
  }),
};

function cutNotice(setup: MachineSetup, reason: Extract<UploadEvent, { type: 'stopRecording' }>['reason']) {
  return reason === 'stop' ? null : { tone: 'info' as const, text: setup.texts.recordingCut };
}

/** The upload sent while recording (`uploadWhileRecording`), while it records and until the take is kept or dropped. */
const liveUploadEvents: StateNode<'recording' | 'review'> = {
  progress: {
    run: (model, event) => {
      const live = liveUploadOf(model, event.attempt);
      return live ? { model: { ...model, liveUpload: { ...live, sent: event.sent } }, effects: [] } : same(model);
    },
  },
  // Refused: the take is uploaded whole once kept, and a refusal then is reported.
  refused: {
    run: (model, event) =>
      liveUploadOf(model, event.attempt)
        ? { model: { ...model, liveUpload: null, waiting: false }, effects: [{ type: 'releaseTransport' }] }
        : same(model),
  },
  // The recording goes on and its data waits; the upload is tried again as any is (the retry policy).
  networkError: {
    run: (model, event, setup) => {
      const live = liveUploadOf(model, event.attempt);
      if (!live) return same(model);
      const policy = afterFailure(model, setup, event.online);
      if (!policy.news) return policy;
      return {
        model: {
          ...policy.model,
          liveUpload: { ...live, sent: event.bytesUploaded, waiting: true },
          notice: { tone: 'error', text: setup.texts.networkError },
        },
        effects: policy.effects,
      };
    },
  },
  resume: { run: (model) => (model.liveUpload?.waiting ? resumeLive(model, model.liveUpload) : same(model)) },
  retry: {
    run: (model) => {
      if (!model.waiting) return same(model);
      if (model.liveUpload?.waiting) return resumeLive(model, model.liveUpload);
      return { model: { ...model, waiting: false }, effects: [{ type: 'resumeTransport' }] };
    },
  },
  liveStored: {
    run: (model, event) => {
      const live = liveUploadOf(model, event.attempt);
      if (!live) return same(model);
      // More bytes confirmed: the retry policy counts failures anew.
      const grew = event.offset > live.confirmed;
      return {
        model: {
          ...model,
          liveUpload: { ...live, url: event.uploadUrl, confirmed: Math.max(live.confirmed, event.offset) },
          failures: grew ? 0 : model.failures,
        },
        effects: [],
      };
    },
  },
};

function resumeLive<F extends FileLike, H extends HandleLike>(model: Model<F, H>, live: NonNullable<Model['liveUpload']>): Step<F, H> {
  return {
    model: { ...model, liveUpload: { ...live, waiting: false }, notice: null, waiting: false },
    effects: [{ type: 'resumeTransport' }],
  };
}

/**
 * The recorder's states, registered with the machine's (machine.ts, `reduce`) when the recorder's
 * chunk loads: `record` asks for it (openSource), and none of their events can come before.
 */
export const RECORDER_STATES: States = {
  permission: {
    sourceReady: {
      to: { preview: true },
      run: (model) => ({ model: { ...model, state: { kind: 'preview', source: model.state.source } }, effects: [] }),
    },
    sourceFailed: {
      to: { idle: 'denied, no camera' },
      run: (model, event, setup) => ({
        model: {
          ...model,
          state: { kind: 'idle' },
          notice: { tone: 'error', text: sourceFailure(setup, model.state.source, event.failure) },
        },
        effects: [{ type: 'closeSource' }],
      }),
    },
    cancelRecording,
  },
  preview: {
    startCountdown: {
      to: { countdown: true },
      run: (model) => ({
        model: { ...model, state: { kind: 'countdown', source: model.state.source, left: 3 } },
        effects: [{ type: 'countdown' }],
      }),
    },
    stopRecording: stopBeforeRecording,
    cancelRecording,
  },
  countdown: {
    tick: { to: { recording: 'after 3, 2, 1' }, run: (model, _event, setup) => countdownTick(model, setup, model.state) },
    stopRecording: stopBeforeRecording,
    cancelRecording,
  },
  recording: {
    ...liveUploadEvents,
    recorded: {
      run: (model, event) =>
        event.attempt === model.attempt
          ? { model: { ...model, state: { ...model.state, bytes: event.bytes, elapsedMs: event.elapsedMs } }, effects: [] }
          : same(model),
    },
    stopRecording: {
      run: (model, event, setup) =>
        model.state.stopping
          ? same(model)
          : {
              model: { ...model, notice: cutNotice(setup, event.reason) ?? model.notice, state: { ...model.state, stopping: true } },
              effects: [{ type: 'stopRecorder' }],
            },
    },
    recordingEnded: {
      to: { review: true, idle: 'nothing recorded' },
      run: (model, event, setup) => {
        if (event.attempt !== model.attempt) return same(model);
        // Stopped before the recorder's first chunk: a take of no bytes, which would neither play nor upload.
        if (event.file.size === 0) {
          const dropped = dropTake(model);
          return {
            model: { ...dropped.model, state: { kind: 'idle' }, notice: { tone: 'error', text: setup.texts.nothingRecorded } },
            effects: [{ type: 'closeSource' }, ...dropped.effects],
          };
        }
        return {
          model: { ...model, state: { kind: 'review', source: model.state.source, file: event.file, durationMs: event.durationMs } },
          effects: [],
        };
      },
    },
    cancelRecording,
  },
  review: {
    ...liveUploadEvents,
    keep: {
      to: { uploading: 'sent while recording', retrying: 'sent while recording', checking: true },
      run: (model) => keep(model, model.state.file),
    },
    retake: {
      to: { preview: true },
      run: (model) => {
        const dropped = dropTake(model);
        return { model: { ...dropped.model, state: { kind: 'preview', source: model.state.source } }, effects: dropped.effects };
      },
    },
    cancelRecording,
  },
};
