import { randomUUID } from 'node:crypto';
import type { Stores } from '../../src/server/storage/stores';
import { type NewVideo } from '../../src/server/storage/videos';
import { VideoStatus } from '../../src/shared/videoStatus';
import { VIDEO_TRANSITIONS } from '../../src/shared/videoTransitions';

/** A video row as a type-1 registration of app-a writes it; tests override what they are about. */
export function newVideo(overrides: Partial<NewVideo> = {}): NewVideo {
  return {
    id: randomUUID(),
    appId: 'app-a',
    title: 'clip',
    description: '',
    tags: '',
    actors: '',
    createUser: 'alice',
    sourceGetType: 1,
    sourcePath: '',
    status: VideoStatus.NotUploaded,
    createdAt: Date.now(),
    ...overrides,
  };
}

/**
 * The statuses a video passes through from its registration to `status`, the shortest way the
 * transition table allows: the first is the status it registers in.
 */
function pathTo(status: VideoStatus): VideoStatus[] {
  let paths: VideoStatus[][] = VIDEO_TRANSITIONS.filter((row) => row.from === null).map((row) => [row.to]);
  const seen = new Set(paths.map((path) => path[0]));
  while (paths.length > 0) {
    const found = paths.find((path) => path.at(-1) === status);
    if (found) return found;
    paths = paths.flatMap((path) =>
      VIDEO_TRANSITIONS.filter((row) => row.from === path.at(-1) && !seen.has(row.to)).map((row) => {
        seen.add(row.to);
        return [...path, row.to];
      }),
    );
  }
  throw new Error(`no way to status ${status} in the transition table`);
}

/** Registers `video` and moves it along the table to `status`, as the service's steps would. */
export async function insertVideoIn(stores: Stores, video: NewVideo, status: VideoStatus): Promise<void> {
  const [first, ...rest] = pathTo(status);
  await stores.videos.insert({ ...video, status: first! });
  let from = first!;
  for (const to of rest) {
    await stores.videos.transition(video.id, [from], to, '', video.createdAt);
    from = to;
  }
}
