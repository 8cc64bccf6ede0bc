import { createClientAsync, type Client } from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';
import { SOAP_PATH } from './support/soap';

// node-soap builds its client from the served WSDL alone: nothing here tells it the shape.
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

interface PostResult {
  PostResult: { AuthMsg: { ResultCode: string; ResultMessage: string }; VideoId?: string };
}

async function client(version: '1.1' | '1.2'): Promise<Client> {
  return createClientAsync(`${service.address}${SOAP_PATH}?wsdl`, { forceSoap12Headers: version === '1.2' });
}

async function callPost(soap: Client, args: object): Promise<PostResult> {
  const [result] = (await soap.PostAsync(args)) as [PostResult];
  return result;
}

async function read(id: string) {
  return (await service.get('/Api/Video/Get', { ...service.auth(), Id: id })).body.Video;
}

const jobKinds = async (id: string) =>
  (await service.db.selectFrom('jobs').select('kind').where('video_id', '=', id).execute()).map((row) => row.kind);

describe('node-soap client generated from the WSDL', () => {
  it.each(['1.1', '1.2'] as const)('registers a video over SOAP %s, which GET /Api/Video/Get then shows', async (version) => {
    const soap = await client(version);
    const result = await callPost(soap, {
      ...service.auth(),
      VideoInfo: { VideoTitle: `西湖 ${version}`, Description: 'd', Tags: 'a,b', Actors: 'x', CreateUser: 'alice', SourceFileGetType: 1 },
    });
    expect(result.PostResult.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    // Proves which binding went out: 1.1 names the action in SOAPAction, 1.2 in the media type.
    const headers = soap.lastRequestHeaders as Record<string, string>;
    if (version === '1.1') expect(headers.SOAPAction).toBe('"http://tempuri.org/Post"');
    else expect(headers['Content-Type']).toBe('application/soap+xml; charset=utf-8; action="http://tempuri.org/Post"');
    expect(soap.lastRequest).toContain(
      version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope',
    );
    const video = await read(result.PostResult.VideoId!);
    expect(video).toMatchObject({
      VideoTitle: `西湖 ${version}`,
      Description: 'd',
      Tags: 'a,b',
      Actors: 'x',
      CreateUser: 'alice',
      Status: 8,
    });
  });

  it('reports application errors as a PostResult with the code, and registers nothing', async () => {
    const soap = await client('1.1');
    const before = await service.videoCount();
    const result = await callPost(soap, { ...service.auth(), Token: '0'.repeat(32), VideoInfo: { VideoTitle: 't', SourceFileGetType: 1 } });
    expect(result.PostResult).toEqual({ AuthMsg: { ResultCode: '104', ResultMessage: 'App SecretKey Error' } });
    expect(await service.videoCount()).toBe(before);
  });
});

describe('the same rules as POST /Api/Video/Post', () => {
  const title = { VideoTitle: 't', SourceFileGetType: '1' };
  const cases: { name: string; auth: () => Record<string, string>; model: Record<string, string>; code: string }[] = [
    { name: 'bad token', auth: () => ({ ...service.auth(), Token: 'f'.repeat(32) }), model: title, code: '104' },
    { name: 'stale timestamp', auth: () => service.auth('app-a', Date.now() - 601_000), model: title, code: '103' },
    { name: 'unknown app', auth: () => ({ ...service.auth(), AppId: 'nobody' }), model: title, code: '102' },
    { name: 'missing VideoTitle', auth: () => service.auth(), model: { SourceFileGetType: '1' }, code: '101' },
    { name: 'missing Token', auth: () => ({ AppId: 'app-a', Timestamp: service.auth().Timestamp }), model: title, code: '101' },
    { name: 'SourceFileGetType 3', auth: () => service.auth(), model: { VideoTitle: 't', SourceFileGetType: '3' }, code: '106' },
    { name: 'type 2 without a path', auth: () => service.auth(), model: { VideoTitle: 't', SourceFileGetType: '2' }, code: '101' },
  ];

  it.each(cases)('$name: code $code, with the very ResultMessage of the web API', async ({ auth, model, code }) => {
    const soap = await client('1.2');
    const credentials = auth();
    const before = await service.videoCount();
    const viaSoap = await callPost(soap, { ...credentials, VideoInfo: model });
    const viaWeb = await service.post({ ...credentials, ...model });
    expect(viaSoap.PostResult.AuthMsg.ResultCode).toBe(code);
    expect(viaSoap.PostResult.AuthMsg).toEqual(viaWeb.body.AuthMsg);
    expect(viaSoap.PostResult.VideoId).toBeUndefined();
    expect(await service.videoCount()).toBe(before);
  });

  it('cuts over-long Chinese and emoji fields exactly as the web API does', async () => {
    const model = {
      VideoTitle: '长'.repeat(47) + '👨‍👩‍👧‍👦' + '尾巴',
      Description: '描述😀'.repeat(200),
      Tags: '风景，旅行,美食，音乐,电影,动画,纪录片',
      Actors: '演员'.repeat(26),
      CreateUser: '用户'.repeat(30),
      SourceFileGetType: '1',
    };
    const viaSoap = await callPost(await client('1.1'), { ...service.auth(), VideoInfo: model });
    const viaWeb = await service.post({ ...service.auth(), ...model });
    const pick = ({ VideoTitle, Description, Tags, Actors, CreateUser, Status }: Record<string, unknown>) => ({
      VideoTitle,
      Description,
      Tags,
      Actors,
      CreateUser,
      Status,
    });
    const soapVideo = pick(await read(viaSoap.PostResult.VideoId!));
    expect(soapVideo).toEqual(pick(await read(viaWeb.body.VideoId)));
    expect(soapVideo.VideoTitle).toBe('长'.repeat(47));
    expect(soapVideo.Tags).toBe('风景,旅行,美食,音乐,电影');
  });

  it('queues the server-side download for type 2, as the web API does', async () => {
    // Loopback port 9: the download part refuses private addresses before connecting.
    const model = { VideoTitle: 'two', SourceFileGetType: '2', SourceFilePath: 'http://127.0.0.1:9/a.mp4' };
    const viaSoap = await callPost(await client('1.1'), { ...service.auth(), VideoInfo: model });
    const viaWeb = await service.post({ ...service.auth(), ...model });
    expect(await jobKinds(viaSoap.PostResult.VideoId!)).toEqual(['download']);
    expect(await jobKinds(viaSoap.PostResult.VideoId!)).toEqual(await jobKinds(viaWeb.body.VideoId));
    expect((await service.context.stores.videos.get(viaSoap.PostResult.VideoId!))!.sourcePath).toBe('http://127.0.0.1:9/a.mp4');
  });
});
