/**
 * The page's restrictions on what a file holds (`accept`, `minDuration`, `maxDuration`): the
 * checks, the words under the size limit, and the one duration reading they share with the
 * Preview. A chunk of its own, which main.tsx loads only for a page that sets any of them, so an
 * uploader without restrictions carries none of it (test/widget.budget.test.ts).
 */
import type { ContentLimits } from '../../shared/restrictions';
import type { Container, FileRefusal } from '../../shared/widgetConfig';
import { formatDuration } from './format';
import type { Texts } from './i18n';
import type { PreviewResult, previewVideo } from './videoPreview';
import { SIGNATURE_BYTES, containerFamilyOf, type ContainerFamily } from './videoSignature';

/** How people write the containers' names (the same in every language). */
const LABELS: Record<Container, string> = {
  mp4: 'MP4',
  mov: 'MOV',
  m4v: 'M4V',
  '3gp': '3GP',
  webm: 'WebM',
  mkv: 'MKV',
  avi: 'AVI',
  flv: 'FLV',
  wmv: 'WMV',
  mpeg: 'MPEG',
  ts: 'MPEG-TS',
  ogg: 'Ogg',
  rm: 'RealMedia',
  mxf: 'MXF',
  dv: 'DV',
};

/** The `accept` name of the containers the signature check knows by one name only. */
const NAMES: Record<Exclude<ContainerFamily, 'mp4' | 'matroska'>, Container> = {
  avi: 'avi',
  flv: 'flv',
  asf: 'wmv',
  'mpeg-ps': 'mpeg',
  'mpeg-ts': 'ts',
  ogg: 'ogg',
  realmedia: 'rm',
  mxf: 'mxf',
  dv: 'dv',
};

function ascii(head: Uint8Array, at: number, text: string): boolean {
  return String.fromCharCode(...head.subarray(at, at + text.length)) === text;
}

/**
 * The container's `accept` name, from the file's first bytes: ISO base media by its `ftyp` major
 * brand (QuickTime's `qt  ` is MOV, Apple's `M4V…` M4V, the 3GPP `3g…` 3GP, any other MP4; a
 * QuickTime file without `ftyp` is MOV), EBML by its header's DocType element (id 0x4282, a
 * one-byte size, the text: `webm`, else Matroska, EBML's default). Null: no video container.
 */
export function containerNameOf(head: Uint8Array): Container | null {
  const container = containerFamilyOf(head);
  if (container === 'mp4') {
    if (!ascii(head, 4, 'ftyp')) return 'mov';
    const brand = String.fromCharCode(...head.subarray(8, 12));
    return brand === 'qt  ' ? 'mov' : brand.startsWith('M4V') ? 'm4v' : brand.startsWith('3g') ? '3gp' : 'mp4';
  }
  if (container === 'matroska') {
    const docType = head.findIndex((byte, i) => byte === 0x42 && head[i + 1] === 0x82 && (head[i + 2]! & 0x80) !== 0);
    return docType > 0 && ascii(head, docType + 3, 'webm') ? 'webm' : 'mkv';
  }
  return container && NAMES[container];
}

/** A video's length or a limit on it: "4.5 s" under a minute (tenths matter near a limit), "10 min", "2 h", else as {@link formatDuration}. */
function formatLength(seconds: number, texts: Texts): string {
  const { hour, minute, second } = texts.units;
  if (seconds < 60) return `${Number(seconds.toFixed(1))} ${second}`;
  const whole = Math.round(seconds);
  // Limits are often whole minutes or hours: "10 min", "2 h", not "10 min 0 s".
  if (whole % 3600 === 0) return `${whole / 3600} ${hour}`;
  return whole < 3600 && whole % 60 === 0 ? `${whole / 60} ${minute}` : formatDuration(whole, texts);
}

const labels = (containers: readonly Container[]) => containers.map((container) => LABELS[container]).join(', ');

/** The restrictions in words, said under the size limit before a file is chosen. */
export function limitHints({ accept, minDuration: min, maxDuration: max }: ContentLimits, t: Texts): string[] {
  const hints = accept ? [t.fill('acceptHint', { accepted: labels(accept) })] : [];
  const length = (seconds: number) => formatLength(seconds, t);
  if (min !== undefined && max !== undefined) hints.push(t.fill('durationRange', { min: length(min), max: length(max) }));
  else if (min !== undefined) hints.push(t.fill('durationAtLeast', { min: length(min) }));
  else if (max !== undefined) hints.push(t.fill('durationAtMost', { max: length(max) }));
  return hints;
}

/** Why a file is refused, with the values its text names (the file's name aside). */
export interface LimitRefusal {
  refusal: Extract<FileRefusal, 'notAccepted' | 'tooShort' | 'tooLong' | 'durationUnknown'>;
  values: Record<string, string>;
}

/** The duration in seconds the browser reads for the file, or undefined when it cannot tell. */
async function durationOf(file: File, preview: typeof previewVideo): Promise<number | undefined> {
  const done = new AbortController();
  try {
    const result = await preview(file, done.signal);
    return result.kind === 'ready' && Number.isFinite(result.duration) ? result.duration : undefined;
  } catch {
    return undefined;
  } finally {
    done.abort();
  }
}

/**
 * The restrictions checked on a file already known to be a video: its container by its first
 * bytes, then its duration as the preview reads it (only when a duration limit is set; inclusive).
 * A duration the browser cannot read is refused while one is set: the limit would otherwise mean
 * nothing for the formats it cannot decode, and the service does not check durations at upload.
 */
export async function checkLimits(file: File, limits: ContentLimits, preview: typeof previewVideo, t: Texts): Promise<LimitRefusal | null> {
  const { accept, minDuration: min, maxDuration: max } = limits;
  if (accept) {
    const container = containerNameOf(new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer()));
    if (!container || !accept.includes(container))
      return { refusal: 'notAccepted', values: { container: container ? LABELS[container] : '?', accepted: labels(accept) } };
  }
  if (min === undefined && max === undefined) return null;
  const duration = await durationOf(file, preview);
  if (duration === undefined) return { refusal: 'durationUnknown', values: {} };
  const length = (seconds: number) => formatLength(seconds, t);
  if (min !== undefined && duration < min) return { refusal: 'tooShort', values: { duration: length(duration), min: length(min) } };
  if (max !== undefined && duration > max) return { refusal: 'tooLong', values: { duration: length(duration), max: length(max) } };
  return null;
}

/**
 * `preview` read once per file for all who ask: the duration check (before a byte is sent) and
 * the Preview beside it want the same reading. It is abandoned only when every asker has.
 */
export function sharedPreview(preview: typeof previewVideo): typeof previewVideo {
  const readings = new WeakMap<File, { result: Promise<PreviewResult>; askers: number; abandon: AbortController }>();
  return (file, signal) => {
    let reading = readings.get(file);
    if (!reading) {
      const abandon = new AbortController();
      reading = { result: preview(file, abandon.signal), askers: 0, abandon };
      readings.set(file, reading);
    }
    const shared = reading;
    shared.askers += 1;
    const leave = () => {
      shared.askers -= 1;
      if (shared.askers > 0) return;
      shared.abandon.abort();
      readings.delete(file);
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    return shared.result;
  };
}
