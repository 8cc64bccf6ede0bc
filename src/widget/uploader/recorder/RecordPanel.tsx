import type { Ref } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { formatBytes, formatDuration } from '../format';
import type { Texts } from '../i18n';
import type { Send, UploaderModel } from '../createUploader';

type RecorderState = Extract<UploaderModel['state'], { kind: 'permission' | 'preview' | 'countdown' | 'recording' | 'review' }>;

interface RecordPanelProps {
  texts: Texts;
  state: RecorderState;
  /** The camera's or screen's live picture, while it is open. */
  stream: MediaStream | undefined;
  primary: Ref<HTMLButtonElement>;
  send: Send;
}

/** The status line (the page's live region) for each of the recorder's states. */
export function recordingStatus(state: RecorderState, t: Texts): string {
  switch (state.kind) {
    case 'permission':
      return t.askingSource;
    case 'preview':
      return '';
    case 'countdown':
      return t.countdown(String(state.left));
    case 'recording':
      return t.recordingNow;
    case 'review':
      return t.reviewTake(formatDuration(state.durationMs / 1000, t));
  }
}

/** The live picture: muted, so the microphone does not echo. */
function LivePicture({ stream }: { stream: MediaStream | undefined }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream ?? null;
  }, [stream]);
  return <video ref={video} class="live" autoPlay muted playsInline aria-hidden="true" />;
}

/** The take, to watch before keeping it. */
function Take({ file }: { file: File }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <video class="live" src={url} controls playsInline />;
}

/**
 * The recorder's screens: waiting for the browser's permission, the live picture with Start,
 * 3-2-1, recording with the time and size so far and Stop, and the take with Upload and Record
 * again. The status line above says each ({@link recordingStatus}); every control is a button.
 */
export function RecordPanel({ texts: t, state, stream, primary, send }: RecordPanelProps) {
  const cancel = (
    <button type="button" onClick={() => send({ type: 'cancelRecording' })}>
      {t.cancel}
    </button>
  );
  switch (state.kind) {
    case 'permission':
      return <div class="actions">{cancel}</div>;
    case 'preview':
      return (
        <div class="recorder">
          <LivePicture stream={stream} />
          <div class="actions">
            <button type="button" ref={primary} class="primary" onClick={() => send({ type: 'startCountdown' })}>
              {t.startRecording}
            </button>
            {cancel}
          </div>
        </div>
      );
    case 'countdown':
      return (
        <div class="recorder">
          <div class="stage">
            <LivePicture stream={stream} />
            <span class="count" aria-hidden="true">
              {state.left}
            </span>
          </div>
          <div class="actions">{cancel}</div>
        </div>
      );
    case 'recording':
      return (
        <div class="recorder">
          <LivePicture stream={stream} />
          <p class="facts rec">
            {formatDuration(state.elapsedMs / 1000, t)} · {formatBytes(state.bytes, t)}
          </p>
          <div class="actions">
            <button
              type="button"
              ref={primary}
              class="primary"
              disabled={state.stopping}
              onClick={() => send({ type: 'stopRecording', reason: 'stop' })}
            >
              {t.stopRecording}
            </button>
          </div>
        </div>
      );
    case 'review':
      return (
        <div class="recorder">
          <Take file={state.file} />
          <div class="actions">
            <button type="button" ref={primary} class="primary" onClick={() => send({ type: 'keep' })}>
              {t.keepTake}
            </button>
            <button type="button" onClick={() => send({ type: 'retake' })}>
              {t.retake}
            </button>
            {cancel}
          </div>
        </div>
      );
  }
}
