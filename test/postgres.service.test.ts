import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/server/log';
import { waitUntil } from '../fault/support/processes';
import { envelope, ENV_11, elementText, postElement, soapPost, SOAP_11_HEADERS } from './support/soap';
import { startPostgres, type TestPostgres } from './support/postgres';
import { startTestService, type TestService } from './support/service';
import { errorLine, getPage, openUploader, pageQuery, registerVideo, resultCode, tusCreate } from './uploadHelpers';

// The whole service on PostgreSQL (DATABASE_URL), against a throwaway cluster.
let postgres: TestPostgres;
let service: TestService;
const logLines: string[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  service = await startTestService({
    env: { DATABASE_URL: await postgres.newDatabase() },
    log: createLogger((line) => logLines.push(line)),
  });
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  await postgres?.stop();
});

describe('the service on PostgreSQL', () => {
  it('is ready, naming its database as working', async () => {
    const res = await fetch(`${service.address}/readyz`);
    expect(res.status).toBe(200);
    expect((await res.json()).checks.database).toBe('ok');
  });

  it('registers videos, shows one and lists them newest first', async () => {
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      const reply = await service.post({ ...service.auth(), VideoTitle: title, SourceFileGetType: '1', CreateUser: 'pat' });
      expect(reply.body.AuthMsg.ResultCode).toBe('1');
      ids.push(reply.body.VideoId);
    }
    const got = await service.get('/Api/Video/Get', { ...service.auth(), Id: ids[1]! });
    expect(got.body.Video).toMatchObject({ Id: ids[1], VideoTitle: 'two', Status: 8, CreateUser: 'pat' });
    const page = await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), createUser: 'pat', PageIndex: '1', PageSize: '2' });
    expect(page.body.Total).toBe(3);
    expect(page.body.VideoList.map((video: { Id: string }) => video.Id)).toEqual([ids[2], ids[1]]);
    const last = await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), createUser: 'pat', PageIndex: '2', PageSize: '2' });
    expect(last.body.VideoList.map((video: { Id: string }) => video.Id)).toEqual([ids[0]]);
  });

  it('queues the download of a type-2 video with its registration', async () => {
    const reply = await service.post({
      ...service.auth(),
      VideoTitle: 'remote',
      SourceFileGetType: '2',
      SourceFilePath: 'http://127.0.0.1:9/a.mp4',
    });
    const id = reply.body.VideoId;
    // Port 9 refuses, so the queued download runs and fails: status 4, as on SQLite.
    for (let tries = 0; tries < 200; tries++) {
      if ((await service.context.stores.videos.get(id))?.status === 4) break;
      await new Promise((wake) => setTimeout(wake, 50));
    }
    expect(await service.context.stores.videos.get(id)).toMatchObject({ status: 4, statusReason: expect.stringMatching(/./) });
  });

  it('answers 503 with ResultCode 114 while the database is down, and recovers by itself when it is back', async () => {
    const registered = await service.post({ ...service.auth(), VideoTitle: 'kept', SourceFileGetType: '1', CreateUser: 'dana' });
    const id = registered.body.VideoId as string;
    await postgres.outage(async () => {
      const got = await service.get('/Api/Video/Get', { ...service.auth(), Id: id });
      expect([got.status, got.body.AuthMsg.ResultCode]).toEqual([503, '114']);
      const post = await service.post({ ...service.auth(), VideoTitle: 'lost?', SourceFileGetType: '1', CreateUser: 'dana' });
      expect([post.status, post.body.AuthMsg.ResultCode]).toEqual([503, '114']);
      expect((await fetch(`${service.address}/readyz`)).status).toBe(503);
    });
    const again = await service.get('/Api/Video/Get', { ...service.auth(), Id: id });
    expect(again.body.Video).toMatchObject({ Id: id, VideoTitle: 'kept' });
    // The registration refused during the outage wrote nothing.
    const list = await service.get('/Api/Video/GetUserVideoList', { ...service.auth(), createUser: 'dana' });
    expect(list.body.Total).toBe(1);
  });

  it('answers 114 in every channel while the database is down (upload page, tus, SOAP PostResult), logging one line for the outage and one for its end', async () => {
    // An earlier outage in this file has ended (its line logged) before this one starts.
    await waitUntil('the end of any earlier outage', 15_000, () =>
      logLines.filter((line) => line.includes('database outage')).length ===
      logLines.filter((line) => line.includes('database back')).length
        ? true
        : undefined,
    );
    const logged = logLines.length;
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    await postgres.outage(async () => {
      const page = await getPage(service, pageQuery(service, videoId));
      expect(page.status).toBe(503);
      expect(errorLine(page.html)).toBe('ErrorCode : 114, ErrorMessage : Database Unavailable');

      const created = await tusCreate(boot.tusEndpoint, boot.ticket, 1024);
      expect(created.status).toBe(503);
      expect(resultCode(created.body)).toBe('114');

      const soap = await soapPost(
        service,
        envelope(ENV_11, postElement(service.auth(), { VideoTitle: 'soap', SourceFileGetType: '1' })),
        SOAP_11_HEADERS,
      );
      expect(soap.status).toBe(200);
      expect(soap.text).not.toContain('Fault');
      expect([elementText(soap.text, 'ResultCode'), elementText(soap.text, 'ResultMessage')]).toEqual(['114', 'Database Unavailable']);

      const api = await service.post({ ...service.auth(), VideoTitle: 'api', SourceFileGetType: '1' });
      expect([api.status, api.body.AuthMsg.ResultCode]).toEqual([503, '114']);
    });
    // Back without a restart: the same page opens and SOAP registers.
    await waitUntil('the end of the outage in the log', 15_000, () =>
      logLines.slice(logged).some((line) => line.includes('database back')) ? true : undefined,
    );
    expect((await getPage(service, pageQuery(service, videoId))).status).toBe(200);
    const soap = await soapPost(
      service,
      envelope(ENV_11, postElement(service.auth(), { VideoTitle: 'soap', SourceFileGetType: '1' })),
      SOAP_11_HEADERS,
    );
    expect(elementText(soap.text, 'ResultCode')).toBe('1');

    const lines = logLines.slice(logged).filter((line) => !line.includes('"message":"request"'));
    expect(lines.filter((line) => line.includes('"part":"database"')).map((line) => JSON.parse(line).message)).toEqual([
      'database outage: the database cannot be reached; requests answer 114 until it is back',
      'database back: the database cannot be reached no more',
    ]);
    // No stack trace, and no other line at warn or error for the outage.
    expect(lines.filter((line) => /"level":"(warn|error)"/.test(line) && !line.includes('"part":"database"'))).toEqual([]);
  });
});
