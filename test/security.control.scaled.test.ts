import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { ENV_11, SOAP_11_HEADERS, SOAP_PATH, elementText, envelope, postElement } from './support/soap';
import { errorLine, getPage, openUploader, pageQuery, registerVideo, tusCreate, tusMetadata } from './uploadHelpers';

/**
 * A NUL (or another control character XML cannot carry) in any text the service takes is refused
 * with 106 naming where it was, on every channel and on both databases: PostgreSQL cannot store
 * U+0000 in text (it answered 500), SQLite stored it. This file also runs on PostgreSQL
 * (`service-scaled`).
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

interface JsonReply {
  status: number;
  body: { AuthMsg: { ResultCode: string; ResultMessage: string }; VideoId?: string };
}

async function jsonReply(response: Promise<Response>): Promise<JsonReply> {
  const res = await response;
  return { status: res.status, body: (await res.json()) as JsonReply['body'] };
}

function expect106(reply: JsonReply, detail: string): void {
  expect([reply.status, reply.body.AuthMsg]).toEqual([400, { ResultCode: '106', ResultMessage: `Invalid Parameter: ${detail}` }]);
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const post = (raw: string) =>
  jsonReply(
    fetch(`${service.address}/Api/Video/Post`, { method: 'POST', headers: FORM, body: `${new URLSearchParams(service.auth())}&${raw}` }),
  );
const get = (path: string, raw: string) => jsonReply(fetch(`${service.address}${path}?${new URLSearchParams(service.auth())}&${raw}`));

describe('the web API', () => {
  it('refuses %00 in a Post field, in the body or the query, with 106 and stores nothing', async () => {
    const before = await service.videoCount();
    expect106(await post('SourceFileGetType=1&VideoTitle=a%00b'), 'VideoTitle holds the control character U+0000');
    expect106(await post('SourceFileGetType=1&VideoTitle=t&Description=%01'), 'Description holds the control character U+0001');
    expect106(await post('SourceFileGetType=1&VideoTitle=t&Tags=x%1F'), 'Tags holds the control character U+001F');
    expect106(await post('SourceFileGetType=1&VideoTitle=t&a%00=1'), 'a parameter name holds the control character U+0000');
    const inQuery = await jsonReply(
      fetch(`${service.address}/Api/Video/Post?CreateUser=%00`, {
        method: 'POST',
        headers: FORM,
        body: `${new URLSearchParams(service.auth())}&SourceFileGetType=1&VideoTitle=t`,
      }),
    );
    expect106(inQuery, 'CreateUser holds the control character U+0000');
    expect(await service.videoCount()).toBe(before);
  });

  it('keeps tab, line feed and carriage return, which text may hold', async () => {
    const posted = await post('SourceFileGetType=1&VideoTitle=a%09b&Description=one%0D%0Atwo');
    expect(posted.body.AuthMsg.ResultCode).toBe('1');
    const got = await service.get('/Api/Video/Get', { ...service.auth(), Id: posted.body.VideoId! });
    expect([got.body.Video.VideoTitle, got.body.Video.Description]).toEqual(['a\tb', 'one\r\ntwo']);
  });

  it('refuses %00 in the Get Id and in the list calls with 106', async () => {
    expect106(await get('/Api/Video/Get', 'Id=%00'), 'Id holds the control character U+0000');
    expect106(await get('/Api/Video/GetUserVideoList', 'createUser=pat%00'), 'createUser holds the control character U+0000');
    expect106(await get('/Api/Video/GetUserVideoListByAId', 'aId=app-a%00&createUser=pat'), 'aId holds the control character U+0000');
  });
});

describe('the upload page', () => {
  it('shows the 106 error page for a videoId with %00', async () => {
    const videoId = await registerVideo(service);
    const page = await getPage(service, pageQuery(service, `${videoId}\u0000`));
    expect(page.status).toBe(400);
    expect(errorLine(page.html)).toBe('ErrorCode : 106, ErrorMessage : Invalid Parameter: videoId holds the control character U+0000');
  });
});

describe('the tus endpoint', () => {
  it('refuses an Upload-Metadata value holding NUL with 106 and creates nothing, with only the page ticket', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const headers = {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '10',
      [TICKET_HEADER]: boot.ticket,
      'Upload-Metadata': tusMetadata({ filename: 'clip\u0000.mp4', filetype: 'video/mp4' }),
    };
    expect106(
      await jsonReply(fetch(boot.tusEndpoint, { method: 'POST', headers })),
      'Upload-Metadata filename holds the control character U+0000',
    );
    expect((await openUploader(service, videoId)).resume).toBeNull();
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, 10, { filename: 'clip\t.mp4', filetype: 'video/mp4' })).status).toBe(201);
  });
});

describe('the SOAP Post operation', () => {
  it.each([
    ['a raw NUL', 'a\u0000b'],
    ['a character reference &#0;', 'a&#0;b'],
  ])('answers %s in a parameter with a Client fault, not an internal error, and stores nothing', async (_what, title) => {
    const before = await service.videoCount();
    const xml = envelope(ENV_11, postElement(service.auth(), { VideoTitle: 'PLACE', SourceFileGetType: '1' })).replace('PLACE', title);
    const res = await fetch(`${service.address}${SOAP_PATH}`, { method: 'POST', headers: SOAP_11_HEADERS, body: xml });
    const text = await res.text();
    expect(elementText(text, 'faultcode')).toMatch(/Client$/);
    expect(elementText(text, 'faultstring')).toMatch(/^The message is not well-formed XML/);
    expect(await service.videoCount()).toBe(before);
  });
});
