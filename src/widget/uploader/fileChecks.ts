import type { FileRefusal } from '../../shared/widgetConfig';

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
