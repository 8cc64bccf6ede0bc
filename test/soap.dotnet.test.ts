import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

// The raw request a .NET Framework client generated from the WSDL sends (see test/fixtures/soap/README.md).
const FIXTURE = readFileSync(new URL('./fixtures/soap/dotnet-asmx-post.http', import.meta.url), 'utf8');

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends the fixture byte for byte as its headers say, `Expect: 100-continue` included: the body
 * goes only after the service's 100 Continue, as .NET's HttpWebRequest does.
 */
function sendFixture(values: Record<string, string>): Promise<RawReply> {
  const [head, body] = FIXTURE.split(/\r?\n\r?\n/, 2) as [string, string];
  const filledBody = Buffer.from(
    body.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name]!),
    'utf8',
  );
  const [requestLine, ...headerLines] = head.split(/\r?\n/);
  const [method, path] = requestLine!.split(' ');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  const url = new URL(service.address);
  headers.Host = url.host;
  headers['Content-Length'] = String(filledBody.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('continue', () => req.end(filledBody));
    req.on('error', reject);
  });
}

describe('a .NET generated client (raw SOAP 1.1 as it sends it)', () => {
  it('registers the video with the same answer and the same stored fields as the web API', async () => {
    const auth = service.auth();
    const reply = await sendFixture(auth);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/xml; charset=utf-8');
    // The exact response shape .NET's XmlSerializer reads back into PostResult.
    const match =
      /<soap:Envelope xmlns:soap="http:\/\/schemas.xmlsoap.org\/soap\/envelope\/"[^>]*><soap:Body><PostResponse xmlns="http:\/\/tempuri.org\/"><PostResult><AuthMsg><ResultCode>1<\/ResultCode><ResultMessage>OK<\/ResultMessage><\/AuthMsg><VideoId>([0-9a-f-]{36})<\/VideoId><\/PostResult><\/PostResponse><\/soap:Body><\/soap:Envelope>$/.exec(
        reply.text,
      );
    expect(match, reply.text).not.toBeNull();
    const viaWeb = await service.post({
      ...auth,
      VideoTitle: '西湖的春天 & 断桥',
      Description: '',
      Tags: '风景，旅行,杭州',
      CreateUser: 'alice',
      SourceFileGetType: '1',
    });
    expect(viaWeb.body.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    const read = async (id: string) => {
      const { Id: _id, CreateDate: _date, ...rest } = (await service.get('/Api/Video/Get', { ...service.auth(), Id: id })).body.Video;
      return rest;
    };
    const stored = await read(match![1]!);
    expect(stored).toEqual(await read(viaWeb.body.VideoId));
    expect(stored).toMatchObject({
      VideoTitle: '西湖的春天 & 断桥',
      Description: '',
      Tags: '风景,旅行,杭州',
      Actors: '',
      CreateUser: 'alice',
      Status: 8,
    });
  });

  it('gets 104 in a PostResult with HTTP 200 for a wrong token, as the web API answers', async () => {
    const reply = await sendFixture({ ...service.auth(), Token: '0123456789abcdef0123456789abcdef' });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(
      '<PostResult><AuthMsg><ResultCode>104</ResultCode><ResultMessage>App SecretKey Error</ResultMessage></AuthMsg></PostResult>',
    );
  });
});
