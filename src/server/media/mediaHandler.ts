import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { RequestContext } from '../http/router';
import { isPictureSize, sizedPictureFile, type PictureSize } from '../processing/pictures';
import { type Video } from '../storage/videos';
import { VideoStatus } from '../../shared/videoStatus';
import { REMUX_FILE } from '../processing/remux';
import { formerFile, type FormerFile } from './formerFiles';
import {
  fragmentIndexOf,
  MASTER_PLAYLIST,
  masterPlaylist,
  mediaPlaylist,
  PLAYLIST_CONTENT_TYPE,
  PLAYLIST_EXTENSION,
  playlistOf,
} from './playlists';

const MEDIA_PREFIX = '/Media/';

const VIDEO_ID = /^[A-Za-z0-9-]{1,64}$/;
/** A plain name: no separator, no `..`, and no leading dot (work folders and partial files start with one). */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

const notFound = () => new ServiceError('NOT_FOUND', 'no such media file');

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
    throw new ServiceError('INVALID_PARAMETER', 't must be one of 2, 3, 4, 5, 6, 7 (or absent for the default picture)');
  }
  return size;
}

/**
 * Which stored file a request may have. The picture is served as soon as it is recorded (it is
 * recorded together with status 1 and stays published in PicSavePath); play files and the
 * original only while the video is in status 1, the only state in which their URLs are published,
 * and a play file the rungs replaced as formerFile says. Any other name, even of a file that
 * exists in the folder, is unknown.
 */
async function servedFile(service: ServiceContext, video: Video, file: string, size: PictureSize | undefined): Promise<FormerFile> {
  if (video.posterFile !== '' && file === video.posterFile) {
    return { file: size === undefined ? file : sizedPictureFile(size) };
  }
  if (video.status !== VideoStatus.Normal) throw notFound();
  const listed = await service.stores.playFiles.forVideo(video.id);
  const published = file === video.sourceFile || listed.some((play) => play.file === file);
  const served = published ? { file } : await formerFile(service, video, file, listed);
  if (!served) throw notFound();
  if (size !== undefined) throw new ServiceError('INVALID_PARAMETER', 't applies only to the picture (PicSavePath)');
  return served;
}

/**
 * The text of an HLS playlist, made from the rungs the video lists (and the index at the head of
 * each), so it names exactly the files `VideoPlayFile` names: a rung is in it from the moment it
 * is listed, and a crash cannot leave it naming a missing file. The remux and needHandleSepcial's
 * original are plain MP4s and never in it; with no rung listed there is no master.
 */
async function playlistText(service: ServiceContext, video: Video, file: string): Promise<string> {
  if (video.status !== VideoStatus.Normal || video.needHandleSpecial) throw notFound();
  const rungs = (await service.stores.playFiles.forVideo(video.id)).filter((play) => play.segmented);
  if (file === MASTER_PLAYLIST) {
    const indexed = await Promise.all(
      rungs.map(async (rung) => ({ file: rung.file, index: await fragmentIndexOf(service.files, video.id, rung.file) })),
    );
    const playable = indexed.flatMap(({ file: name, index }) => (index ? [{ file: name, index }] : []));
    if (playable.length === 0) throw notFound();
    return masterPlaylist(playable);
  }
  const rung = rungs.find((play) => playlistOf(play.file) === file);
  const index = rung && (await fragmentIndexOf(service.files, video.id, rung.file));
  if (!rung || !index) throw notFound();
  return mediaPlaylist(rung.file, index);
}

/** Media and playlists are public and take no credentials: any origin may read them, so hls.js on an app's own page can. */
const ANY_ORIGIN = { 'Access-Control-Allow-Origin': '*' };

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
    if (file.endsWith(PLAYLIST_EXTENSION)) {
      if (size !== undefined) throw new ServiceError('INVALID_PARAMETER', 't applies only to the picture (PicSavePath)');
      const body = Buffer.from(await playlistText(service, video, file));
      // The master changes as rungs are added: a cache asks again each time.
      res.writeHead(200, {
        'Content-Type': PLAYLIST_CONTENT_TYPE,
        'Content-Length': body.length,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        ...ANY_ORIGIN,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    for (const [name, value] of Object.entries(ANY_ORIGIN)) res.setHeader(name, value);
    const served = await servedFile(service, video, file, size);
    if ('movedTo' in served) {
      // Relative, so it stays on whatever address the request came by; asked again each time.
      res.writeHead(307, { Location: encodeURIComponent(served.movedTo), 'Cache-Control': 'no-cache' });
      res.end();
      return;
    }
    // The remux's URL redirects to another file once its grace ends. A cache that kept its bytes
    // must ask again each time (304 while it is served), or a player joins them to the other file's.
    if (served.file === REMUX_FILE) res.setHeader('Cache-Control', 'no-cache');
    await service.files.send(req, res, video.id, served.file);
  };
}
