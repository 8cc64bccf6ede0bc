import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isServiceError, type ErrorName } from '../errors';
import { decodeForm, MAX_FORM_BYTES, Params, queryParams, readFormBody } from './params';

async function kindOf(promiseOrFn: Promise<unknown> | (() => unknown)): Promise<ErrorName | 'none'> {
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
    return 'none';
  } catch (error) {
    if (isServiceError(error)) return error.kind;
    throw error;
  }
}

/** A request body as the server sees it: a stream of chunks with headers. */
function request(chunks: (string | Buffer)[], headers: Record<string, string> = {}): IncomingMessage {
  const stream = Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
  return Object.assign(stream, { headers }) as unknown as IncomingMessage;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('Params', () => {
  it('reads a name from the query or the body', () => {
    const params = new Params(new URLSearchParams('AppId=a'), new URLSearchParams('Token=t'));
    expect(params.get('AppId')).toBe('a');
    expect(params.get('Token')).toBe('t');
    expect(params.get('Timestamp')).toBeUndefined();
  });

  it('matches names exactly as written (case counts)', () => {
    expect(new Params(new URLSearchParams('appid=a')).get('AppId')).toBeUndefined();
  });

  it('accepts the same value given twice', () => {
    expect(new Params(new URLSearchParams('AppId=a&AppId=a'), new URLSearchParams('AppId=a')).get('AppId')).toBe('a');
  });

  it('refuses different values for one name, within or across sources, as 106', async () => {
    expect(await kindOf(() => new Params(new URLSearchParams('Id=1&Id=2')).get('Id'))).toBe('INVALID_PARAMETER');
    expect(await kindOf(() => new Params(new URLSearchParams('Id=1'), new URLSearchParams('Id=2')).get('Id'))).toBe('INVALID_PARAMETER');
  });

  it('require: trims, and reports absent or blank as 101', async () => {
    expect(new Params(new URLSearchParams('Id=%20x%20')).require('Id')).toBe('x');
    expect(await kindOf(() => new Params(new URLSearchParams('Id=%20')).require('Id'))).toBe('MISSING_PARAMETER');
    expect(await kindOf(() => new Params(new URLSearchParams('')).require('Id'))).toBe('MISSING_PARAMETER');
  });
});

describe('readFormBody', () => {
  it('decodes a UTF-8 form, with + as space', async () => {
    const body = await readFormBody(request(['VideoTitle=%E8%A7%86%E9%A2%91+1&Tags=', 'a%2Cb'], FORM));
    expect(body.get('VideoTitle')).toBe('视频 1');
    expect(body.get('Tags')).toBe('a,b');
  });

  it('takes a charset parameter and any case in the content type', async () => {
    const body = await readFormBody(request(['a=1'], { 'content-type': 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' }));
    expect(body.get('a')).toBe('1');
  });

  it('allows an empty body with any content type (everything may travel in the query)', async () => {
    expect([...(await readFormBody(request([], {})))]).toEqual([]);
  });

  it('refuses a body of another content type as 106', async () => {
    expect(await kindOf(readFormBody(request(['{"a":1}'], { 'content-type': 'application/json' })))).toBe('INVALID_PARAMETER');
    expect(await kindOf(readFormBody(request(['a=1'], {})))).toBe('INVALID_PARAMETER');
  });

  it('refuses bytes that are not UTF-8 as 106, naming the parameter', async () => {
    await expect(readFormBody(request([Buffer.from([0x61, 0x3d, 0xff, 0xfe])], FORM))).rejects.toThrow(
      'Invalid Parameter: a is not valid UTF-8',
    );
  });

  it('refuses a percent-encoded value that is not UTF-8 as 106, naming the parameter', async () => {
    await expect(readFormBody(request(['VideoTitle=%FF%FE&Tags=a'], FORM))).rejects.toThrow(
      'Invalid Parameter: VideoTitle is not valid UTF-8',
    );
  });

  it('refuses a body over the limit as 109, by its declared length or by what arrives', async () => {
    const declared = request(['a=1'], { ...FORM, 'content-length': String(MAX_FORM_BYTES + 1) });
    expect(await kindOf(readFormBody(declared))).toBe('PAYLOAD_TOO_LARGE');
    const chunk = 'a'.repeat(16 * 1024);
    const streamed = request([chunk, chunk, chunk, chunk, 'b'], FORM);
    expect(await kindOf(readFormBody(streamed))).toBe('PAYLOAD_TOO_LARGE');
  });

  it('reports a body cut off by the client as 106, not an internal error', async () => {
    const stream = new Readable({
      read() {
        this.push('VideoTitle=');
        this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    const cut = Object.assign(stream, { headers: FORM }) as unknown as IncomingMessage;
    expect(await kindOf(readFormBody(cut))).toBe('INVALID_PARAMETER');
  });

  it('accepts a body of exactly the limit', async () => {
    const body = 'a=' + 'x'.repeat(MAX_FORM_BYTES - 2);
    expect((await readFormBody(request([body], FORM))).get('a')).toHaveLength(MAX_FORM_BYTES - 2);
  });
});

/** The form text as bytes, as a body or a query string arrives. */
const form = (text: string) => decodeForm(Buffer.from(text, 'utf8'));
const pairs = (params: URLSearchParams) => [...params];
const failure = (text: string) => {
  try {
    form(text);
    return 'none';
  } catch (error) {
    return isServiceError(error) ? `${error.kind}: ${error.detail}` : String(error);
  }
};

describe('decodeForm', () => {
  it.each([
    'a=1&b=2',
    'a=%E8%A7%86%E9%A2%91+1',
    'a=%e8%a7%86',
    '&&a=1&&',
    'a&b=&=c',
    'a=1=2',
    'a=%zz%4&b=%',
    'a=%EF%BB%BFx',
    'a=%EF%BF%BD',
    '%61%3D=%26',
    'x=视频😀',
    '',
  ])('reads %j exactly as URLSearchParams does when it is UTF-8', (text) => {
    expect(pairs(form(text))).toEqual(pairs(new URLSearchParams(text)));
  });

  it.each([
    ['VideoTitle=%FF%FE', 'INVALID_PARAMETER: VideoTitle is not valid UTF-8'],
    ['ok=1&Tags=a%C3', 'INVALID_PARAMETER: Tags is not valid UTF-8'],
    ['a=%C0%AF', 'INVALID_PARAMETER: a is not valid UTF-8'],
    ['a=%ED%A0%80', 'INVALID_PARAMETER: a is not valid UTF-8'],
    ['a=%F4%90%80%80', 'INVALID_PARAMETER: a is not valid UTF-8'],
    ['a=%E8%A7', 'INVALID_PARAMETER: a is not valid UTF-8'],
    ['%FF=1', 'INVALID_PARAMETER: a parameter name is not valid UTF-8'],
  ])('refuses %j, where URLSearchParams would store U+FFFD', (text, expected) => {
    expect(new URLSearchParams(text).toString()).toMatch(/%EF%BF%BD/);
    expect(failure(text)).toBe(expected);
  });

  it.each([
    ['VideoTitle=a%00b', 'INVALID_PARAMETER: VideoTitle holds the control character U+0000'],
    ['Tags=%08', 'INVALID_PARAMETER: Tags holds the control character U+0008'],
    ['a=%1B%5B2J', 'INVALID_PARAMETER: a holds the control character U+001B'],
    ['x%0B=1', 'INVALID_PARAMETER: a parameter name holds the control character U+000B'],
  ])('refuses %j: a control character no database or SOAP client keeps alike', (text, expected) => {
    expect(failure(text)).toBe(expected);
  });

  it('keeps tab, line feed, carriage return and DEL', () => {
    expect(form('a=1%092%0A3%0D4%7F').get('a')).toBe('1\t2\n3\r4\x7f');
  });

  it('refuses raw bytes that are not UTF-8, naming the parameter', () => {
    expect(() => decodeForm(Buffer.from([0x41, 0x3d, 0x31, 0x26, 0x42, 0x3d, 0xe8, 0xa7]))).toThrow('B is not valid UTF-8');
  });
});

describe('queryParams', () => {
  it('decodes the query of a URL, + as space, and refuses one that is not UTF-8 by name', () => {
    expect(queryParams(new URL('http://x.invalid/a?VideoTitle=%E8%A7%86+1&x')).get('VideoTitle')).toBe('视 1');
    expect(() => queryParams(new URL('http://x.invalid/a?Id=%FF%FE'))).toThrow('Id is not valid UTF-8');
  });
});
