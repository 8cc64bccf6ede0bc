import type { ServiceContext } from '../context';
import { ApiError } from '../errors';
import type { RequestContext } from '../http/router';
import { isPictureSize, sizedPictureFile, type PictureSize } from '../processing/pictures';
import { type Video } from '../storage/videos';
import { VideoStatus } from '../../shared/videoStatus';

const MEDIA_PREFIX = '/Media/';

const VIDEO_ID = /^[A-Za-z0-9-]{1,64}$/;
/** A plain name: no separator, no `..`, and no leading dot (work folders and partial files start with one). */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

const notFound = () => new ApiError('NOT_FOUND', 'no such media file');

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound();
  }
}

/** `?t=2` … `?t=7` picks a picture size; no `t` the default picture. */
function pictureSize(url: URL): PictureSize | undefined {
  const values = url.searchParams.getAll('t');
  if (values.length === 0) return undefined;
  const size = Number(values[0]);
  if (values.length > 1 || !/^\d$/.test(values[0]!) || !isPictureSize(size)) {
    throw new ApiError('INVALID_PARAMETER', 't must be one of 2, 3, 4, 5, 6, 7 (or absent for the default picture)');
  }
  return size;
}

/**
 * Which stored file a request may have. The picture is served as soon as it is recorded (it is
 * recorded together with status 1 and stays published in PicSavePath); play files and the
 * original only while the video is in status 1, the only state in which their URLs are published.
 * Any other name, even of a file that exists in the folder, is unknown.
 */
async function servedFile(service: ServiceContext, video: Video, file: string, size: PictureSize | undefined): Promise<string> {
  if (video.posterFile !== '' && file === video.posterFile) {
    return size === undefined ? file : sizedPictureFile(size);
  }
  const published =
    video.status === VideoStatus.Normal &&
    (file === video.sourceFile || (await service.stores.playFiles.forVideo(video.id)).some((play) => play.file === file));
  if (!published) throw notFound();
  if (size !== undefined) throw new ApiError('INVALID_PARAMETER', 't applies only to the picture (PicSavePath)');
  return file;
}

/**
 * GET/HEAD `/Media/<videoId>/<file>`: the URLs the API publishes (PicSavePath, MediaSever,
 * VideoPlayFile). No sign-in, as `<video>` and `<img>` elements cannot send one; the ids are
 * random UUIDs. Every failure is the same 404, so the answer does not tell which videos exist.
 */
export function mediaHandler(service: ServiceContext) {
  return async ({ req, res, url }: RequestContext): Promise<void> => {
    const size = pictureSize(url);
    const segments = url.pathname.slice(MEDIA_PREFIX.length).split('/');
    if (segments.length !== 2) throw notFound();
    const videoId = decodeSegment(segments[0]!);
    const file = decodeSegment(segments[1]!);
    if (!VIDEO_ID.test(videoId) || !FILE_NAME.test(file) || file.includes('..')) throw notFound();
    const video = await service.stores.videos.get(videoId);
    if (!video) throw notFound();
    await service.files.send(req, res, video.id, await servedFile(service, video, file, size));
  };
}
