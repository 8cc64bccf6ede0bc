import type { RecordSource } from '../../../shared/widgetConfig';
import type { SourceFailure } from '../machine';

/** The person (or a policy) refused, there is no such device, or anything else. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  constructor(readonly failure: SourceFailure) {
    super(`recording source: ${failure}`);
  }
}

/** The browser's refusals by their DOMException names (Media Capture and Streams). */
function failureOf(error: unknown): SourceFailure {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noDevice';
  return 'failed';
}

/** The camera with the microphone, or a screen, window or tab (with its sound where the browser offers it). */
export async function openSource(source: RecordSource): Promise<MediaStream> {
  const devices = navigator.mediaDevices;
  try {
    return source === 'camera'
      ? await devices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: true })
      : await devices.getDisplayMedia({ video: true, audio: true });
  } catch (error) {
    throw new SourceError(failureOf(error));
  }
}

/**
 * The first container and codecs this browser records: WebM with VP9 or VP8 and Opus (Chromium,
 * Firefox), else MP4 (Safari). Empty: the browser's own choice.
 */
const TYPES = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];

export function recordingType(): string {
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** The chunks come about once a second, so the upload follows the recording closely. */
const TIMESLICE_MS = 1000;

export interface RecorderListeners {
  /** The next piece of the recording, in order. */
  onChunk(chunk: Blob): void;
  /** Bytes recorded so far and the time recorded, with each chunk. */
  onFigures(bytes: number, elapsedMs: number): void;
  /** Every chunk has been handed over; `durationMs` is the time recorded. */
  onStopped(durationMs: number): void;
}

/** Recording of `stream` from now on; `stop()` hands over the last chunk, then `onStopped`. */
export function record(
  stream: MediaStream,
  mimeType: string,
  listeners: RecorderListeners,
  now = () => performance.now(),
): { stop(): void } {
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : {});
  const started = now();
  let bytes = 0;
  recorder.addEventListener('dataavailable', (event) => {
    bytes += event.data.size;
    listeners.onChunk(event.data);
    listeners.onFigures(bytes, now() - started);
  });
  recorder.addEventListener('stop', () => listeners.onStopped(now() - started));
  recorder.start(TIMESLICE_MS);
  return {
    stop() {
      if (recorder.state !== 'inactive') recorder.stop();
    },
  };
}

/** The take's file name: `recording-2026-11-25-1430.webm` (local time), its extension by its type. */
export function takeName(type: string, at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}`;
  return `recording-${stamp}.${type.startsWith('video/mp4') ? 'mp4' : 'webm'}`;
}
