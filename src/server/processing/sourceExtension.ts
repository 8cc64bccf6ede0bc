import { extname } from 'node:path';

const VIDEO_EXTENSIONS = new Set([
  '.3gp',
  '.asf',
  '.avi',
  '.f4v',
  '.flv',
  '.m2ts',
  '.m4v',
  '.mkv',
  '.mov',
  '.mp4',
  '.mpeg',
  '.mpg',
  '.mts',
  '.mxf',
  '.ogv',
  '.rm',
  '.rmvb',
  '.ts',
  '.vob',
  '.webm',
  '.wmv',
]);

const BY_CONTENT_TYPE: Readonly<Record<string, string>> = {
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'video/x-matroska': '.mkv',
  'video/x-msvideo': '.avi',
  'video/x-flv': '.flv',
  'video/x-ms-wmv': '.wmv',
  'video/x-ms-asf': '.asf',
  'video/mpeg': '.mpg',
  'video/mp2t': '.ts',
  'video/3gpp': '.3gp',
  'video/ogg': '.ogv',
  'video/x-m4v': '.m4v',
};

/** Used when neither the URL nor the Content-Type names a video format: ffprobe reads the content, not the name. */
const UNKNOWN_SOURCE_EXTENSION = '.bin';

function urlExtension(url: URL): string | undefined {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape only means the raw path is used.
  }
  const extension = extname(path).toLowerCase();
  return VIDEO_EXTENSIONS.has(extension) ? extension : undefined;
}

/**
 * The stored source file's extension. The spec asks for a `SourceFilePath` that includes the
 * file extension, so the URL the app gave wins; then the URL a redirect ended on (signed CDN
 * links often hide it); then the reply's Content-Type. Only known video extensions are used,
 * so a name like `clip.php` never decides how the file is served later.
 */
export function sourceExtension(urls: readonly URL[], contentType: string | undefined): string {
  for (const url of urls) {
    const extension = urlExtension(url);
    if (extension) return extension;
  }
  const mime = contentType?.split(';')[0]?.trim().toLowerCase();
  return (mime && BY_CONTENT_TYPE[mime]) || UNKNOWN_SOURCE_EXTENSION;
}
