import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';
import { SOAP_PATH } from './support/soap';

// PHP's SoapClient (Debian php-cli + php-soap, installed by .ci/run): a second generated client
// nobody here wrote, in another language, reading only the served WSDL.
const run = promisify(execFile);
const SCRIPT = new URL('./support/phpSoapClient.php', import.meta.url).pathname;

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

interface PhpOutcome {
  result?: { PostResult: { AuthMsg: { ResultCode: string; ResultMessage: string }; VideoId?: string } };
  requestHeaders?: string;
  fault?: { code: string; string: string };
}

async function php(version: '1.1' | '1.2', args: object, soapAction?: string): Promise<PhpOutcome> {
  const argv = [SCRIPT, `${service.address}${SOAP_PATH}?wsdl`, version, JSON.stringify(args), ...(soapAction ? [soapAction] : [])];
  return JSON.parse((await run('php', argv, { encoding: 'utf8' })).stdout) as PhpOutcome;
}

describe('PHP SoapClient generated from the WSDL', () => {
  it.each(['1.1', '1.2'] as const)('registers a video over SOAP %s, which GET /Api/Video/Get then shows', async (version) => {
    const outcome = await php(version, {
      ...service.auth(),
      VideoInfo: { VideoTitle: `西湖 php ${version}`, Tags: '风景，旅行', SourceFileGetType: 1 },
    });
    expect(outcome.result!.PostResult.AuthMsg).toEqual({ ResultCode: '1', ResultMessage: 'OK' });
    expect(outcome.requestHeaders).toContain(
      version === '1.1'
        ? 'SOAPAction: "http://tempuri.org/Post"'
        : 'Content-Type: application/soap+xml; charset=utf-8; action="http://tempuri.org/Post"',
    );
    const video = (await service.get('/Api/Video/Get', { ...service.auth(), Id: outcome.result!.PostResult.VideoId! })).body.Video;
    expect(video).toMatchObject({ VideoTitle: `西湖 php ${version}`, Tags: '风景,旅行', Status: 8 });
  });

  it('reads an application error as a PostResult, not an exception', async () => {
    const outcome = await php('1.2', {
      ...service.auth('app-a', Date.now() - 3_600_000),
      VideoInfo: { VideoTitle: 't', SourceFileGetType: 1 },
    });
    expect(outcome.fault).toBeUndefined();
    expect(outcome.result!.PostResult.AuthMsg.ResultCode).toBe('103');
  });

  it.each([
    ['1.1', 'Client'],
    ['1.2', 'Sender'],
  ] as const)('reads the SOAP %s Fault for an unknown action as a SoapFault with code %s', async (version, code) => {
    const before = await service.videoCount();
    const outcome = await php(version, { ...service.auth(), VideoInfo: { VideoTitle: 't', SourceFileGetType: 1 } }, 'urn:not-an-operation');
    expect(outcome.fault).toEqual({ code: `soap:${code}`, string: 'Unknown SOAP action: "urn:not-an-operation"' });
    expect(await service.videoCount()).toBe(before);
  });
});
