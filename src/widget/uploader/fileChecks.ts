import type { ContentLimits } from '../../shared/restrictions';
import type { Container, FileRefusal } from '../../shared/widgetConfig';

/**
 * Extensions accepted when the browser gives no video MIME type: Windows reports none for .mkv
 * and .flv, and some systems say application/octet-stream.
 */
const VIDEO_EXTENSIONS = new Set([
  '3g2',
  '3gp',
  'asf',
  'avi',
  'divx',
  'dv',
  'f4v',
  'flv',
  'm2ts',
  'm4v',
  'mkv',
  'mov',
  'mp4',
  'mpeg',
  'mpg',
  'mts',
  'mxf',
  'ogv',
  'rm',
  'rmvb',
  'ts',
  'vob',
  'webm',
  'wmv',
]);

/** For the file input: a hint to the browser's file dialog, not a check. */
export const ACCEPT = ['video/*', ...[...VIDEO_EXTENSIONS].map((ext) => `.${ext}`)].join(',');

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function isVideoFile(file: Pick<File, 'name' | 'type'>): boolean {
  const type = file.type.toLowerCase();
  if (type.startsWith('video/')) return true;
  return (type === '' || type === 'application/octet-stream') && VIDEO_EXTENSIONS.has(extension(file.name));
}

/** Checked before any byte is sent; the service enforces the size limit too. */
export function refuseFile(
  file: Pick<File, 'name' | 'type' | 'size'>,
  maxFileSize: number,
): Extract<FileRefusal, 'empty' | 'notVideo' | 'tooLarge'> | null {
  if (file.size === 0) return 'empty';
  if (!isVideoFile(file)) return 'notVideo';
  if (file.size > maxFileSize) return 'tooLarge';
  return null;
}

/** Whether the page limits the duration, so the check must read it before a byte is sent. */
export function needsDuration(limits: ContentLimits): boolean {
  return limits.minDuration !== undefined || limits.maxDuration !== undefined;
}

/**
 * The page's restrictions on what the file holds: its container (by its first bytes) and its
 * duration in seconds (undefined: the browser could not tell). A file whose duration is unknown
 * is refused while a duration limit is set: the limit would otherwise mean nothing for the
 * formats the browser cannot read, and the service does not check it (docs/widget.md).
 */
export function refuseContent(container: Container, duration: number | undefined, limits: ContentLimits): FileRefusal | null {
  if (limits.accept && !limits.accept.includes(container)) return 'notAccepted';
  if (!needsDuration(limits)) return null;
  if (duration === undefined || !Number.isFinite(duration)) return 'durationUnknown';
  if (limits.minDuration !== undefined && duration < limits.minDuration) return 'tooShort';
  if (limits.maxDuration !== undefined && duration > limits.maxDuration) return 'tooLong';
  return null;
}
