import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestService } from './support/service';

describe('state across a restart on the same DATA_DIR', () => {
  it('keeps registered videos, their fields, dates and order', async () => {
    const first = await startTestService();
    const dataDir = first.dataDir;
    try {
      const ids: string[] = [];
      for (const title of ['旧的', '新的']) {
        const reply = await first.post({ ...first.auth(), VideoTitle: title, Tags: '猫，狗', SourceFileGetType: '1', CreateUser: 'alice' });
        ids.push(reply.body.VideoId);
      }
      const before = (await first.get('/Api/Video/Get', { ...first.auth(), Id: ids[0]! })).body;
      await first.stop();

      const second = await startTestService({ dataDir });
      try {
        const after = (await second.get('/Api/Video/Get', { ...second.auth(), Id: ids[0]! })).body;
        expect(after.Video).toEqual(before.Video);
        const list = (await second.get('/Api/Video/GetUserVideoList', { ...second.auth(), createUser: 'alice' })).body;
        expect(list.Total).toBe(2);
        expect(list.VideoList.map((video: { Id: string }) => video.Id)).toEqual([ids[1], ids[0]]);
        // The schema is not created twice and new registrations still work.
        expect((await second.post({ ...second.auth(), VideoTitle: 'third', SourceFileGetType: '1' })).body.AuthMsg.ResultCode).toBe('1');
        expect(await second.videoCount()).toBe(3);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
