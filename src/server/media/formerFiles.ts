import type { ServiceContext } from '../context';
import { REMUX_FILE } from '../processing/remux';
import type { PlayFile } from '../storage/playFiles';
import type { Video } from '../storage/videos';

/** What a request for a play file the video no longer lists gets: the file itself, or a redirect. */
export type FormerFile = { file: string } | { movedTo: string };

/**
 * A URL the API handed out keeps answering for as long as the video exists. The remux is
 * PlayURL and MobilePlayURL at status 1 until the rungs replace it: for REMUX_GRACE_S after that
 * it is still served (a player that started on it plays to its end, its ranges from the same
 * bytes), and from then on its URL redirects to the best file listed, the one PlayURL names now.
 * Undefined for any other name: not one the service handed out for this video.
 */
export async function formerFile(
  service: ServiceContext,
  video: Video,
  file: string,
  listed: readonly PlayFile[],
): Promise<FormerFile | undefined> {
  if (video.needHandleSpecial || listed.length === 0) return undefined;
  const until = await service.stores.playFiles.retiredUntil(video.id, file);
  if (until !== undefined && service.now() < until) return { file };
  // Videos whose remux was removed before retirement was recorded have no row, only the name.
  if (until === undefined && file !== REMUX_FILE) return undefined;
  return { movedTo: listed[0]!.file };
}
