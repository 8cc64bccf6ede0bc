import type { UploadPageBoot } from '../../../shared/uploadPage';
import type { RecordSource } from '../../../shared/widgetConfig';
import type { Effect, MachineSetup, StateKind } from '../machine';
import { transportEvents } from '../transportEvents';
import type { StartUpload, UploadControl } from '../uploadCore';
import type { Send } from '../createUploader';
import { GrowingInput } from './growingInput';
import { openSource, record, recordingType, SourceError, takeName } from './media';

/** The machine's effects this session performs (machine.ts): the camera or screen, the recorder, the upload sent while recording. */
export type RecorderEffect = Extract<
  Effect<File>,
  { type: 'openSource' | 'closeSource' | 'countdown' | 'startRecorder' | 'stopRecorder' | 'endLive' | 'dropLive' }
>;

export interface SessionDeps {
  dispatch: Send;
  /** The machine's state now, for answers that arrive after it has moved on. */
  stateKind(): StateKind;
  boot: UploadPageBoot;
  setup: MachineSetup;
  startUpload: StartUpload;
  discard(uploadUrl: string, ticket: string): Promise<boolean>;
  /** The upload sent while recording becomes the page's transport: Resume, Cancel and Pause act on it once it is kept. */
  setTransport(control: UploadControl | null): void;
}

export interface RecorderSession {
  perform(effect: RecorderEffect): void;
  /** The camera's or screen's live picture, while the source is open. */
  stream(): MediaStream | undefined;
}

const SECOND = 1000;

function release(stream: MediaStream | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * The recorder's side of the page, loaded only when the person chooses Record: it opens the
 * source, counts down, records in chunks of about a second, stops at `maxDuration`, when a camera
 * recording's page is hidden or when the source ends, and with `uploadWhileRecording` feeds the
 * chunks to an upload of deferred length as they come. It keeps no state of the machine's: it
 * only turns what the browser does into the machine's events.
 */
export function recorderSession(deps: SessionDeps): RecorderSession {
  const { dispatch, boot, setup } = deps;
  let source: RecordSource = 'camera';
  let stream: MediaStream | undefined;
  let recorder: { stop(): void } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let input: GrowingInput | undefined;
  /** Stops the upload sent while recording, so that what it still reports is dropped. */
  let stopLive: (() => void) | undefined;

  // A camera recording stops when the page is hidden (another tab, the phone locked): the picture
  // would freeze or go black. A screen recording goes on: showing other windows is its point.
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && source === 'camera') dispatch({ type: 'stopRecording', reason: 'hidden' });
  };
  const stopWatching = () => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onHidden);
  };

  const open = (chosen: RecordSource) => {
    source = chosen;
    openSource(chosen).then(
      (opened) => {
        // Cancelled while the browser asked: let it go at once.
        if (deps.stateKind() !== 'permission') return release(opened);
        stream = opened;
        // The share ended from the browser's own bar, or the camera was unplugged.
        for (const track of opened.getVideoTracks())
          track.addEventListener('ended', () => dispatch({ type: 'stopRecording', reason: 'ended' }));
        dispatch({ type: 'sourceReady' });
      },
      (error: unknown) => dispatch({ type: 'sourceFailed', failure: error instanceof SourceError ? error.failure : 'failed' }),
    );
  };

  const start = (attempt: number, sendsLive: boolean) => {
    if (!stream) return;
    const mimeType = recordingType();
    const type = mimeType.split(';')[0] || 'video/webm';
    const name = takeName(type, new Date());
    const take = new GrowingInput(name, type);
    input = take;
    const made = record(stream, mimeType, {
      onChunk: (chunk) => take.append(chunk),
      onFigures: (bytes, elapsedMs) => dispatch({ type: 'recorded', attempt, bytes, elapsedMs }),
      onStopped: (durationMs) => {
        if (recorder === made) dispatch({ type: 'recordingEnded', attempt, file: new File([take.whole()], name, { type }), durationMs });
      },
    });
    recorder = made;
    const limit = setup.limits.maxDuration;
    if (limit) timer = setTimeout(() => dispatch({ type: 'stopRecording', reason: 'stop' }), limit * SECOND);
    document.addEventListener('visibilitychange', onHidden);
    if (sendsLive) startLive(attempt, take);
  };

  const startLive = (attempt: number, take: GrowingInput) => {
    let dropped = false;
    const control = deps.startUpload(
      {
        file: take,
        fingerprint: `recording:${take.name}`,
        videoId: boot.videoId,
        endpoint: boot.tusEndpoint,
        ticket: boot.ticket,
        resume: null,
      },
      {
        onStored: (uploadUrl, offset) => {
          // Created just as the take was dropped: delete it too, so nothing is left behind.
          if (dropped) void deps.discard(uploadUrl, boot.ticket);
          else dispatch({ type: 'liveStored', attempt, uploadUrl, offset });
        },
        ...transportEvents(dispatch, attempt, boot.tusEndpoint),
      },
    );
    stopLive = () => {
      dropped = true;
      control.pause();
    };
    deps.setTransport(control);
  };

  const close = () => {
    stopWatching();
    // What it still hands over belongs to no take.
    const stopping = recorder;
    recorder = undefined;
    stopping?.stop();
    release(stream);
    stream = undefined;
  };

  return {
    stream: () => stream,
    perform(effect) {
      switch (effect.type) {
        case 'openSource':
          return open(effect.source);
        case 'closeSource':
          return close();
        case 'countdown':
          timer = setTimeout(() => dispatch({ type: 'tick' }), SECOND);
          return;
        case 'startRecorder':
          return start(effect.attempt, effect.uploadWhileRecording);
        case 'stopRecorder':
          stopWatching();
          return recorder?.stop();
        case 'endLive':
          return input?.end();
        case 'dropLive':
          if (stopLive) {
            stopLive();
            deps.setTransport(null);
            stopLive = undefined;
          }
          if (effect.uploadUrl) void deps.discard(effect.uploadUrl, boot.ticket);
          return;
      }
    },
  };
}
