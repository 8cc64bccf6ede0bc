import { randomUUID } from 'node:crypto';
import { type NewVideo } from '../../src/server/storage/videos';
import { VideoStatus } from '../../src/shared/videoStatus';

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
