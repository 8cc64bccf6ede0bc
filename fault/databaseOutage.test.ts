import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../test/support/postgres';
import { elementText, envelope, ENV_12, postElement, soapPost, SOAP_12_HEADERS } from '../test/support/soap';
import { errorLine, getPage, openUploader, pageQuery, registerVideo, resultCode, tusCreate } from '../test/uploadHelpers';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { waitUntil } from './support/processes';

// A real service process on a real PostgreSQL cluster, which is stopped under it mid-traffic.
let postgres: TestPostgres;
let service: CrashableService;
const home = serviceHome();
beforeAll(async () => {
  postgres = await startPostgres();
  service = await startCrashable(home, { DATABASE_URL: await postgres.newDatabase() });
}, 60_000);
afterAll(async () => {
  await stopCrashable(service);
  await postgres?.stop();
  home.remove();
});

interface Answer {
  status: number;
  code: string;
}

/** GET /Api/Video/Get of one video, again and again until stopped, as a busy app backend would. */
function steadyTraffic(videoId: string): { stop(): Promise<Answer[]> } {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const query = new URLSearchParams({ ...service.auth(), Id: videoId });
      try {
        const res = await fetch(`${service.address}/Api/Video/Get?${query}`);
        answers.push({ status: res.status, code: ((await res.json()) as { AuthMsg: { ResultCode: string } }).AuthMsg.ResultCode });
      } catch (error) {
        // A connection the service broke: a failure the assertions below name.
        answers.push({ status: 0, code: String(error) });
      }
      await new Promise((wake) => setTimeout(wake, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return answers;
    },
  };
}

const soapCall = () =>
  soapPost(service, envelope(ENV_12, postElement(service.auth(), { VideoTitle: 'by SOAP', SourceFileGetType: '1' })), SOAP_12_HEADERS);

describe('PostgreSQL stopped mid-traffic, then started again', () => {
  it('answers 114 / 503 in every channel (SOAP: a PostResult), logs one line for the outage and one for its end, and serves again without a restart', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const logged = service.process.lines.length;
    const traffic = steadyTraffic(videoId);
    await new Promise((wake) => setTimeout(wake, 300));

    await postgres.outage(async () => {
      // The pool notices the stop on its next query.
      await waitUntil('the API to answer 114', 10_000, async () =>
        (await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: videoId })}`)).status === 503
          ? true
          : undefined,
      );

      const post = await fetch(`${service.address}/Api/Video/Post`, {
        method: 'POST',
        body: new URLSearchParams({ ...service.auth(), VideoTitle: 'lost?', SourceFileGetType: '1' }),
      });
      expect([post.status, resultCode(await post.text())]).toEqual([503, '114']);

      const page = await getPage(service, pageQuery(service, videoId));
      expect(page.status).toBe(503);
      expect(errorLine(page.html)).toBe('ErrorCode : 114, ErrorMessage : Database Unavailable');

      const created = await tusCreate(boot.tusEndpoint, boot.ticket, 1024);
      expect([created.status, resultCode(created.body)]).toEqual([503, '114']);
      expect(created.headers.get('content-type')).toMatch(/^application\/json/);

      const soap = await soapCall();
      expect(soap.status).toBe(200);
      expect(soap.text).not.toMatch(/Fault/);
      expect([elementText(soap.text, 'ResultCode'), elementText(soap.text, 'ResultMessage')]).toEqual(['114', 'Database Unavailable']);
      // Long enough for the worker's and the callback queue's polls to meet the outage too.
      await new Promise((wake) => setTimeout(wake, 2_500));
    });

    // The same process, with no restart: every channel works again.
    await waitUntil('the API to answer again', 15_000, async () =>
      (await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: videoId })}`)).status === 200
        ? true
        : undefined,
    );
    const answers = await traffic.stop();
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    expect(
      answers.filter((answer) => !(answer.status === 200 && answer.code === '1') && !(answer.status === 503 && answer.code === '114')),
    ).toEqual([]);
    expect(answers.at(-1)).toEqual({ status: 200, code: '1' });
    expect((await getPage(service, pageQuery(service, videoId))).status).toBe(200);
    expect(elementText((await soapCall()).text, 'ResultCode')).toBe('1');
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, 1024)).status).toBe(201);

    await waitUntil('the end of the outage in the log', 10_000, () =>
      service.process.lines.slice(logged).some((line) => line.includes('database back')) ? true : undefined,
    );
    const lines = service.process.lines.slice(logged).filter((line) => !line.includes('"message":"request"'));
    // One line when it started, one when it ended, naming the part; nothing else above info, and no stack trace.
    expect(
      lines
        .filter((line) => /"level":"(warn|error)"/.test(line) || line.includes('"part":"database"'))
        .map((line) => JSON.parse(line).message),
    ).toEqual([
      'database outage: the database cannot be reached; requests answer 114 until it is back',
      'database back: the database cannot be reached no more',
    ]);
    expect(service.process.lines.filter((line) => !line.startsWith('{'))).toEqual([]);
  });
});
