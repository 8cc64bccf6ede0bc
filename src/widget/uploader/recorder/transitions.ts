/**
 * The uploader's machine (machine.ts) from the person's Record on: permission, the live picture,
 * 3-2-1, recording, the take to keep or drop, and the upload sent while recording. Pure, as the
 * rest of the machine, whose states, model and TRANSITIONS these are; a module of their own only
 * so that they load with the recorder's chunk (machine.ts, RecordingStep).
 */
import type { RecordSource } from '../../../shared/widgetConfig';
import {
  isRecording,
  liveOf,
  post,
  type Effect,
  type FileLike,
  type HandleLike,
  type MachineSetup,
  type Model,
  type RecordingStep,
  type SourceFailure,
  type Step,
  type UploadState,
} from '../machine';

/** Drops the take and the upload sent while recording, if any: later events of either are stale. */
function dropTake<F extends FileLike, H extends HandleLike>(model: Model<F, H>): { model: Model<F, H>; effects: Effect<F, H>[] } {
  return {
    model: { ...model, attempt: model.attempt + 1, live: null, notice: null },
    effects: model.live ? [{ type: 'dropLive', uploadUrl: model.live.url }] : [],
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
  state: Extract<UploadState<F, H>, { kind: 'countdown' }>,
): Step<F, H> {
  if (state.left > 1) return { model: { ...model, state: { ...state, left: state.left - 1 } }, effects: [{ type: 'countdown' }] };
  const attempt = model.attempt + 1;
  const live = setup.uploadWhileRecording;
  return {
    model: {
      ...model,
      attempt,
      live: live ? { attempt, url: undefined, sent: 0, waiting: false } : null,
      state: { kind: 'recording', source: state.source, elapsedMs: 0, bytes: 0, stopping: false },
    },
    effects: [{ type: 'startRecorder', attempt, live }],
  };
}

/**
 * Upload the take: the upload sent while recording sends what is left and declares the length
 * (it becomes the upload, so its events count from here as any upload's); without one, the take
 * is checked and uploaded as a chosen file is.
 */
function keep<F extends FileLike, H extends HandleLike>(model: Model<F, H>, file: F): Step<F, H> {
  const { live } = model;
  if (live)
    return {
      model: {
        ...model,
        live: null,
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

/** The recorder's events, and the live upload's while it records. */
export const recordingStep: RecordingStep = (model, event, setup) => {
  const { state } = model;
  const same = { model, effects: [] };
  switch (event.type) {
    case 'sourceReady':
      return state.kind === 'permission' ? { model: { ...model, state: { kind: 'preview', source: state.source } }, effects: [] } : same;
    case 'sourceFailed':
      if (state.kind !== 'permission') return same;
      return {
        model: { ...model, state: { kind: 'idle' }, notice: { tone: 'error', text: sourceFailure(setup, state.source, event.failure) } },
        effects: [{ type: 'closeSource' }],
      };
    case 'startCountdown':
      return state.kind === 'preview'
        ? { model: { ...model, state: { kind: 'countdown', source: state.source, left: 3 } }, effects: [{ type: 'countdown' }] }
        : same;
    case 'tick':
      return state.kind === 'countdown' ? countdownTick(model, setup, state) : same;
    case 'recorded':
      if (state.kind !== 'recording' || event.attempt !== model.attempt) return same;
      return { model: { ...model, state: { ...state, bytes: event.bytes, elapsedMs: event.elapsedMs } }, effects: [] };
    case 'stopRecording': {
      const cut = event.reason === 'stop' ? null : { tone: 'info' as const, text: setup.texts.recordingCut };
      // Before recording starts there is nothing to keep: back to the choice.
      if (state.kind === 'preview' || state.kind === 'countdown')
        return { model: { ...model, state: { kind: 'idle' }, notice: cut }, effects: [{ type: 'closeSource' }] };
      if (state.kind !== 'recording' || state.stopping) return same;
      return { model: { ...model, notice: cut ?? model.notice, state: { ...state, stopping: true } }, effects: [{ type: 'stopRecorder' }] };
    }
    case 'recordingEnded': {
      if (state.kind !== 'recording' || event.attempt !== model.attempt) return same;
      // Stopped before the recorder's first chunk: a take of no bytes, which would neither play nor upload.
      if (event.file.size === 0) {
        const dropped = dropTake(model);
        return {
          model: { ...dropped.model, state: { kind: 'idle' }, notice: { tone: 'error', text: setup.texts.nothingRecorded } },
          effects: [{ type: 'closeSource' }, ...dropped.effects],
        };
      }
      return {
        model: { ...model, state: { kind: 'review', source: state.source, file: event.file, durationMs: event.durationMs } },
        effects: [],
      };
    }
    case 'keep':
      return state.kind === 'review' ? keep(model, state.file) : same;
    case 'retake': {
      if (state.kind !== 'review') return same;
      const dropped = dropTake(model);
      return { model: { ...dropped.model, state: { kind: 'preview', source: state.source } }, effects: dropped.effects };
    }
    case 'cancelRecording': {
      if (!isRecording(state)) return same;
      const dropped = dropTake(model);
      return { model: { ...dropped.model, state: { kind: 'idle' } }, effects: [{ type: 'closeSource' }, ...dropped.effects] };
    }
    case 'progress': {
      const live = liveOf(model, event.attempt);
      return live ? { model: { ...model, live: { ...live, sent: event.sent } }, effects: [] } : same;
    }
    // The upload sent while recording was refused: the take is uploaded whole once kept, and a refusal then is reported.
    case 'refused':
      return liveOf(model, event.attempt) ? { model: { ...model, live: null }, effects: [{ type: 'releaseTransport' }] } : same;
    // While recording, the recording goes on and its data waits; the upload continues as any does (resume).
    case 'networkError': {
      const live = liveOf(model, event.attempt);
      if (!live) return same;
      return {
        model: {
          ...model,
          live: { ...live, sent: event.bytesUploaded, waiting: true },
          notice: { tone: 'error', text: setup.texts.networkError },
        },
        effects: [],
      };
    }
    case 'resume':
      return model.live?.waiting
        ? { model: { ...model, live: { ...model.live, waiting: false }, notice: null }, effects: [{ type: 'resumeTransport' }] }
        : same;
    case 'liveStored': {
      const live = liveOf(model, event.attempt);
      return live ? { model: { ...model, live: { ...live, url: event.uploadUrl } }, effects: [] } : same;
    }
  }
};
