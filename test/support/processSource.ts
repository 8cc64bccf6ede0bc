import { expect } from 'vitest';
import type { GetVideoReply } from '../../src/shared/apiReplies';
import { markSourceStored } from '../../src/server/processing/pipeline';
import { registerVideo } from '../uploadHelpers';
import type { TestService } from './service';
import { placeMedia } from './storage';

/** The API's `Get` reply for `videoId`. */
export async function getVideoReply(service: TestService, videoId: string): Promise<GetVideoReply> {
  const query = new URLSearchParams({ ...service.auth(), Id: videoId });
  return (await fetch(`${service.address}/Api/Video/Get?${query}`)).json() as Promise<GetVideoReply>;
}

/**
 * Registers a video and stores `file` as its source, as a finished upload does (named `name`);
 * resolves with the `Get` reply once processing first ends in status 1.
 */
export async function processSource(
  service: TestService,
  file: string,
  options: { name?: string; needHandleSpecial?: boolean; timeoutMs: number },
): Promise<{ videoId: string; first: GetVideoReply }> {
  const { name = 'source.mp4', needHandleSpecial = false, timeoutMs } = options;
  const videoId = await registerVideo(service);
  await placeMedia(service, videoId, name, file);
  expect(await markSourceStored(service.context, videoId, name, { needHandleSpecial })).toBe(true);
  const deadline = Date.now() + timeoutMs;
  while ((await service.context.stores.videos.get(videoId))!.status !== 1) {
    if (Date.now() > deadline) throw new Error(`video ${videoId} never reached status 1`);
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return { videoId, first: await getVideoReply(service, videoId) };
}

/** The HLS master playlist beside a reply's play files: MobilePlayURL once a rung is listed. */
export const masterOf = (reply: GetVideoReply) => reply.VideoPlayFile[0]!.VideoURL.replace(/[^/]+$/, 'master.m3u8');
