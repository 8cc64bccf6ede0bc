import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageMessage } from '../src/shared/messages';
import type { ErrorPageData } from '../src/server/widget/pages';
import { startTestService, type TestService } from './support/service';
import { ENV_11, ENV_12, SOAP_11_HEADERS, SOAP_12_HEADERS, SOAP_PATH, elementText, envelope, postElement } from './support/soap';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { CHANNEL, errorLine, getPage, HOST_ORIGIN, jsonBlock, openUploader, pageQuery, registerVideo, tusCreate } from './uploadHelpers';

/**
 * Bytes that are not UTF-8 once percent-decoded (or base64-decoded, or read from the XML body)
 * are refused with 106 naming the parameter, in every channel: stored as U+FFFD they would lose
 * the caller's text without a word.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

/** A query string of the app's fresh credentials (percent-encoded by URLSearchParams) followed by raw text. */
function signedQuery(raw: string): string {
  return `${new URLSearchParams(service.auth())}&${raw}`;
}

interface JsonReply {
  status: number;
  contentType: string | null;
  body: { AuthMsg: { ResultCode: string; ResultMessage: string } };
}

async function jsonReply(response: Promise<Response>): Promise<JsonReply> {
  const res = await response;
  return { status: res.status, contentType: res.headers.get('content-type'), body: (await res.json()) as JsonReply['body'] };
}

function expect106(reply: JsonReply, name: string): void {
  expect(reply.status).toBe(400);
  expect(reply.contentType).toBe('application/json; charset=utf-8');
  expect(reply.body.AuthMsg).toEqual({ ResultCode: '106', ResultMessage: `Invalid Parameter: ${name} is not valid UTF-8` });
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('the web API', () => {
  it('refuses VideoTitle=%FF%FE in a form body with 106 naming it and stores nothing, where real UTF-8 is kept', async () => {
    const before = await service.videoCount();
    const body = `${new URLSearchParams(service.auth())}&SourceFileGetType=1&VideoTitle=%FF%FE`;
    expect106(await jsonReply(fetch(`${service.address}/Api/Video/Post`, { method: 'POST', headers: FORM, body })), 'VideoTitle');
    expect(await service.videoCount()).toBe(before);

    // Real UTF-8 is stored as sent, a U+FFFD the caller meant included.
    const good = `${new URLSearchParams(service.auth())}&SourceFileGetType=1&VideoTitle=%E8%A7%86%EF%BF%BD`;
    const posted = await jsonReply(fetch(`${service.address}/Api/Video/Post`, { method: 'POST', headers: FORM, body: good }));
    expect(posted.body.AuthMsg.ResultCode).toBe('1');
    const id = (posted.body as unknown as { VideoId: string }).VideoId;
    const got = await service.get('/Api/Video/Get', { ...service.auth(), Id: id });
    expect(got.body.Video.VideoTitle).toBe('视\uFFFD');
  });

  it('refuses a value that is not UTF-8 in the query of a POST, whatever the body holds', async () => {
    const before = await service.videoCount();
    const body = `${new URLSearchParams(service.auth())}&SourceFileGetType=1&VideoTitle=ok`;
    const reply = await jsonReply(fetch(`${service.address}/Api/Video/Post?CreateUser=a%C3`, { method: 'POST', headers: FORM, body }));
    expect106(reply, 'CreateUser');
    expect(await service.videoCount()).toBe(before);
  });

  it('refuses it in the query of GET /Api/Video/Get and of the list calls', async () => {
    expect106(await jsonReply(fetch(`${service.address}/Api/Video/Get?${signedQuery('Id=%ED%A0%80')}`)), 'Id');
    expect106(await jsonReply(fetch(`${service.address}/Api/Video/GetUserVideoList?${signedQuery('createUser=%FF')}`)), 'createUser');
    expect106(
      await jsonReply(fetch(`${service.address}/Api/Video/GetUserVideoListByAId?${signedQuery('aId=app-a&createUser=%C0%AF')}`)),
      'createUser',
    );
  });
});

describe('the upload page', () => {
  it('shows the 106 error page naming the parameter, and still tells the host through its channel', async () => {
    const videoId = await registerVideo(service);
    const page = await getPage(service, `${pageQuery(service, videoId)}&lang=%FF%FE`);
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(errorLine(page.html)).toBe('ErrorCode : 106, ErrorMessage : Invalid Parameter: lang is not valid UTF-8');
    const data = jsonBlock<ErrorPageData>(page.html, 'upload-error')!;
    expect(data.targetOrigin).toBe(HOST_ORIGIN);
    expect(data.messages.at(-1)).toEqual({
      protocol: 'open-upload/1',
      channel: CHANNEL,
      type: 'failure',
      info: {
        videoId,
        reason: 'validation',
        code: '106',
        message: 'Invalid Parameter: lang is not valid UTF-8',
        requestId: page.headers.get('x-request-id')!,
      },
    } satisfies PageMessage);
    // The video is untouched: a page with a clean query still opens.
    expect((await openUploader(service, videoId)).videoId).toBe(videoId);
  });
});

describe('the tus endpoint', () => {
  it('refuses an Upload-Metadata value that is not UTF-8 once base64-decoded with 106 naming its key, and creates nothing', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const headers = {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '10',
      [TICKET_HEADER]: boot.ticket,
      // "clip.mp4" and video/mp4, then a file name of the bytes FF FE.
      'Upload-Metadata': `filetype ${Buffer.from('video/mp4').toString('base64')},filename ${Buffer.from([0xff, 0xfe]).toString('base64')}`,
    };
    const reply = await jsonReply(fetch(boot.tusEndpoint, { method: 'POST', headers }));
    expect106(reply, 'Upload-Metadata filename');
    expect((await openUploader(service, videoId)).resume).toBeNull();
    // Real UTF-8 still creates the upload.
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, 10, { filename: '视频\uFFFD.mp4', filetype: 'video/mp4' })).status).toBe(201);
  });
});

describe('the SOAP Post operation', () => {
  /** A Post envelope whose `field` holds `bad` (raw bytes) between "a" and "b". */
  function postWithBytes(ns: string, field: string, bad: number[]): Buffer {
    const xml = envelope(ns, postElement(service.auth(), { VideoTitle: 't', Tags: 't', SourceFileGetType: '1', [field]: 'a\u0000b' }));
    const [before, after] = xml.split('\u0000') as [string, string];
    return Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
  }

  async function soap(body: Buffer, headers: Record<string, string>) {
    const res = await fetch(`${service.address}${SOAP_PATH}`, { method: 'POST', headers, body: new Uint8Array(body) });
    return { status: res.status, text: await res.text() };
  }

  it.each([
    ['1.1', ENV_11, SOAP_11_HEADERS, 'VideoTitle', [0xff, 0xfe]],
    ['1.2', ENV_12, SOAP_12_HEADERS, 'Tags', [0xe8, 0xa7]],
  ] as const)(
    'SOAP %s: bytes that are not UTF-8 in a parameter are a PostResult 106 naming it, and store nothing',
    async (_version, ns, headers, field, bad) => {
      const before = await service.videoCount();
      const reply = await soap(postWithBytes(ns, field, [...bad]), headers);
      expect(reply.status).toBe(200);
      expect(elementText(reply.text, 'ResultCode')).toBe('106');
      expect(elementText(reply.text, 'ResultMessage')).toBe(`Invalid Parameter: ${field} is not valid UTF-8`);
      expect(reply.text).not.toContain('<VideoId>');
      expect(await service.videoCount()).toBe(before);
    },
  );

  it("answers 106 only for bytes in a parameter's text; elsewhere (markup, a comment, an attribute) a Fault", async () => {
    const inParameter = await soap(postWithBytes(ENV_12, 'Description', [0xc0, 0xaf]), SOAP_12_HEADERS);
    expect(elementText(inParameter.text, 'ResultMessage')).toBe('Invalid Parameter: Description is not valid UTF-8');
    const good = envelope(ENV_12, postElement(service.auth(), { VideoTitle: 't', SourceFileGetType: '1' }));
    /** `good` with `inserted` (text, then the byte FF, then text) in place of the first `replaced`. */
    const withByte = (replaced: string, before: string, after: string) => {
      const at = good.indexOf(replaced);
      return Buffer.concat([
        Buffer.from(good.slice(0, at) + before),
        Buffer.from([0xff]),
        Buffer.from(after + good.slice(at + replaced.length)),
      ]);
    };
    for (const body of [
      withByte('<VideoTitle>t</VideoTitle>', '<Video', 'Title>t</Video\uFFFDTitle>'),
      withByte('<soap:Body>', '<soap:Body><!--', '-->'),
      withByte('<soap:Body>', '<soap:Body x="', '">'),
    ]) {
      const reply = await soap(body, SOAP_12_HEADERS);
      expect(reply.status).toBe(500);
      expect(elementText(reply.text, 'Text')).toBe('The message must be encoded as UTF-8');
    }
  });
});
