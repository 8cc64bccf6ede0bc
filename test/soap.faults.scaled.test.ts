import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/server/log';
import { refuseVideoInserts } from './support/database';
import { startTestService, type TestService } from './support/service';
import {
  ENV_11,
  ENV_12,
  SOAP_11_HEADERS,
  SOAP_12_HEADERS,
  elementText,
  envelope,
  postElement,
  soapPost,
  type SoapReply,
} from './support/soap';

let service: TestService;
let secretDir: string;
let secretFile: string;
const logLines: string[] = [];
const SECRET_MARKER = 'only-on-this-disk-7f3a9c';

beforeAll(async () => {
  service = await startTestService({ log: createLogger((line) => logLines.push(line)) });
  // A local file the XXE payloads point at: its content must never come back or be stored.
  secretDir = mkdtempSync(join(tmpdir(), 'ovu-xxe-'));
  secretFile = join(secretDir, 'secret.txt');
  writeFileSync(secretFile, SECRET_MARKER);
});
afterAll(async () => {
  await service.stop(true);
  rmSync(secretDir, { recursive: true, force: true });
});

const goodPost = () => postElement(service.auth(), { VideoTitle: 'ok', SourceFileGetType: '1' });

/** A SOAP 1.1 or 1.2 Fault with HTTP 500, its code, and no trace of a stack or of the secret file. */
function expectFault(reply: SoapReply, version: '1.1' | '1.2', code: string, reason: RegExp): void {
  expect(reply.status).toBe(500);
  expect(reply.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts\b/);
  expect(reply.text).not.toContain(SECRET_MARKER);
  if (version === '1.1') {
    expect(reply.contentType).toBe('text/xml; charset=utf-8');
    expect(reply.text).toContain(`<soap:Envelope xmlns:soap="${ENV_11}"`);
    expect(elementText(reply.text, 'faultcode')).toBe(`soap:${code}`);
    expect(elementText(reply.text, 'faultstring')).toMatch(reason);
  } else {
    expect(reply.contentType).toBe('application/soap+xml; charset=utf-8');
    expect(reply.text).toContain(`<soap:Envelope xmlns:soap="${ENV_12}"`);
    expect(elementText(reply.text, 'Value')).toBe(`soap:${code}`);
    expect(elementText(reply.text, 'Text')).toMatch(reason);
  }
}

describe('malformed SOAP gets a Fault of its version, HTTP 500', () => {
  const cases: {
    name: string;
    version: '1.1' | '1.2';
    headers: Record<string, string>;
    body: () => string;
    code: string;
    reason: RegExp;
  }[] = [
    {
      name: 'not XML (1.1)',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => 'AppId=app-a&VideoTitle=x',
      code: 'Client',
      reason: /not well-formed XML/,
    },
    {
      name: 'not XML (1.2)',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => '<soap:Envelope',
      code: 'Sender',
      reason: /not well-formed XML/,
    },
    { name: 'empty body', version: '1.1', headers: SOAP_11_HEADERS, body: () => '', code: 'Client', reason: /not well-formed XML/ },
    {
      name: 'root is not an Envelope',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: goodPost,
      code: 'Client',
      reason: /not a SOAP Envelope/,
    },
    {
      name: 'Envelope without Body',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => `<e:Envelope xmlns:e="${ENV_12}"><e:Header/></e:Envelope>`,
      code: 'Sender',
      reason: /one Body/,
    },
    {
      name: '1.2 envelope sent as text/xml',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_12, goodPost()),
      code: 'VersionMismatch',
      reason: /envelope namespace/,
    },
    {
      name: '1.1 envelope sent as application/soap+xml',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => envelope(ENV_11, goodPost()),
      code: 'VersionMismatch',
      reason: /envelope namespace/,
    },
    {
      name: 'Envelope in no namespace',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => `<Envelope><Body>${goodPost()}</Body></Envelope>`,
      code: 'VersionMismatch',
      reason: /no namespace/,
    },
    {
      name: 'unknown operation',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => envelope(ENV_12, '<Delete xmlns="http://tempuri.org/"/>'),
      code: 'Sender',
      reason: /Unknown operation: \{http:\/\/tempuri.org\/\}Delete/,
    },
    {
      name: 'Post in the wrong namespace',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, goodPost().replace('http://tempuri.org/', 'urn:other')),
      code: 'Client',
      reason: /Unknown operation: \{urn:other\}Post/,
    },
    {
      name: 'empty Body',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, ''),
      code: 'Client',
      reason: /Body is empty/,
    },
    {
      name: 'missing SOAPAction (1.1)',
      version: '1.1',
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: () => envelope(ENV_11, goodPost()),
      code: 'Client',
      reason: /SOAPAction HTTP header is required/,
    },
    {
      name: 'unknown SOAPAction',
      version: '1.1',
      headers: { ...SOAP_11_HEADERS, SOAPAction: '"http://tempuri.org/Delete"' },
      body: () => envelope(ENV_11, goodPost()),
      code: 'Client',
      reason: /Unknown SOAP action/,
    },
    {
      name: 'unknown 1.2 action',
      version: '1.2',
      headers: { 'Content-Type': 'application/soap+xml; action="urn:x"' },
      body: () => envelope(ENV_12, goodPost()),
      code: 'Sender',
      reason: /Unknown SOAP action: "urn:x"/,
    },
    {
      name: 'unsupported media type',
      version: '1.1',
      headers: { 'Content-Type': 'application/json' },
      body: () => '{}',
      code: 'Client',
      reason: /Content-Type must be text\/xml/,
    },
    {
      name: 'a charset other than UTF-8 (1.2)',
      version: '1.2',
      headers: { 'Content-Type': 'application/soap+xml; charset=iso-8859-1' },
      body: () => envelope(ENV_12, goodPost()),
      code: 'Sender',
      reason: /UTF-8: charset iso-8859-1/,
    },
    {
      name: 'a charset other than UTF-8',
      version: '1.1',
      headers: { ...SOAP_11_HEADERS, 'Content-Type': 'text/xml; charset=utf-16' },
      body: () => envelope(ENV_11, goodPost()),
      code: 'Client',
      reason: /UTF-8/,
    },
    {
      name: 'an unknown field',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, goodPost().replace('<VideoTitle>', '<VideoTitel>').replace('</VideoTitle>', '</VideoTitel>')),
      code: 'Client',
      reason: /VideoInfo has no element \{http:\/\/tempuri.org\/\}VideoTitel/,
    },
    {
      name: 'an unqualified field',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, goodPost().replace('<AppId>', '<AppId xmlns="">')),
      code: 'Client',
      reason: /Post has no element AppId/,
    },
    {
      name: 'a field given twice',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, goodPost().replace('<VideoInfo>', '<VideoInfo><VideoTitle>a</VideoTitle>')),
      code: 'Client',
      reason: /VideoTitle is given more than once/,
    },
    {
      name: 'a mustUnderstand header block',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () =>
        `<e:Envelope xmlns:e="${ENV_12}"><e:Header><s:Security xmlns:s="urn:sec" e:mustUnderstand="true"/></e:Header><e:Body>${goodPost()}</e:Body></e:Envelope>`,
      code: 'MustUnderstand',
      reason: /\{urn:sec\}Security/,
    },
    {
      name: 'text directly inside the Body (1.1)',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, `AppId=app-a${goodPost()}`),
      code: 'Client',
      reason: /the Body holds text outside its elements/,
    },
    {
      name: 'text directly inside the Body (1.2)',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => envelope(ENV_12, `${goodPost()}x`),
      code: 'Sender',
      reason: /the Body holds text outside its elements/,
    },
    {
      name: 'text directly inside the Envelope (1.1)',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => `<soap:Envelope xmlns:soap="${ENV_11}">hello<soap:Body>${goodPost()}</soap:Body></soap:Envelope>`,
      code: 'Client',
      reason: /the Envelope holds text outside its elements/,
    },
    {
      name: 'text directly inside the Envelope (1.2)',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => `<soap:Envelope xmlns:soap="${ENV_12}"><soap:Body>${goodPost()}</soap:Body><![CDATA[x]]></soap:Envelope>`,
      code: 'Sender',
      reason: /the Envelope holds text outside its elements/,
    },
    {
      name: 'text directly inside the Header (1.2)',
      version: '1.2',
      headers: SOAP_12_HEADERS,
      body: () => `<soap:Envelope xmlns:soap="${ENV_12}"><soap:Header>x</soap:Header><soap:Body>${goodPost()}</soap:Body></soap:Envelope>`,
      code: 'Sender',
      reason: /the Header holds text outside its elements/,
    },
    {
      name: 'a no-break space (not XML white space) inside the Body',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, `\u00A0${goodPost()}`),
      code: 'Client',
      reason: /the Body holds text outside its elements/,
    },
    {
      name: 'nesting beyond the depth limit',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, '<a>'.repeat(40) + '</a>'.repeat(40)),
      code: 'Client',
      reason: /too deeply/,
    },
    {
      name: 'a body over 64 KiB',
      version: '1.1',
      headers: SOAP_11_HEADERS,
      body: () => envelope(ENV_11, `<!--${'x'.repeat(70_000)}-->${goodPost()}`),
      code: 'Client',
      reason: /too large: over 65536 bytes/,
    },
  ];

  it.each(cases)('$name', async ({ version, headers, body, code, reason }) => {
    const before = await service.videoCount();
    expectFault(await soapPost(service, body(), headers), version, code, reason);
    expect(await service.videoCount()).toBe(before);
  });

  it('answers a VersionMismatch in SOAP 1.2 with an Upgrade header naming both envelopes', async () => {
    const reply = await soapPost(service, envelope(ENV_11, goodPost()), SOAP_12_HEADERS);
    expect(reply.text).toContain(`<soap:SupportedEnvelope qname="v12:Envelope" xmlns:v12="${ENV_12}"/>`);
    expect(reply.text).toContain(`<soap:SupportedEnvelope qname="v11:Envelope" xmlns:v11="${ENV_11}"/>`);
  });

  it('accepts what older clients send: a bare SOAPAction, a byte order mark, `xsi:nil` for a null field', async () => {
    const post = goodPost().replace('<VideoInfo>', '<VideoInfo><Actors xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/>');
    const reply = await soapPost(service, `\uFEFF${envelope(ENV_11, post)}`, { ...SOAP_11_HEADERS, SOAPAction: 'http://tempuri.org/Post' });
    expect(reply.status).toBe(200);
    expect(elementText(reply.text, 'ResultCode')).toBe('1');
  });

  it('tells white space between the elements of the Envelope, Header and Body (with comments and PIs: accepted) from other text (refused)', async () => {
    const body = (gap: string) =>
      `<soap:Envelope xmlns:soap="${ENV_11}">\r\n\t<!-- c --><soap:Header> </soap:Header>\n<soap:Body>${gap}<?pi x?>${goodPost()}\n</soap:Body>\n</soap:Envelope>`;
    const reply = await soapPost(service, body('\n  '), SOAP_11_HEADERS);
    expect(reply.status).toBe(200);
    expect(elementText(reply.text, 'ResultCode')).toBe('1');
    const before = await service.videoCount();
    expectFault(await soapPost(service, body('\n x '), SOAP_11_HEADERS), '1.1', 'Client', /the Body holds text outside its elements/);
    expect(await service.videoCount()).toBe(before);
  });

  it('ignores header blocks that need not be understood, and mustUnderstand ones for other roles', async () => {
    const header =
      '<s:Trace xmlns:s="urn:trace">1</s:Trace>' +
      `<s:Security xmlns:s="urn:sec" soap:mustUnderstand="1" soap:actor="urn:some-other-node"/>`;
    const body = `<soap:Envelope xmlns:soap="${ENV_11}"><soap:Header>${header}</soap:Header><soap:Body>${goodPost()}</soap:Body></soap:Envelope>`;
    const reply = await soapPost(service, body, SOAP_11_HEADERS);
    expect(reply.status).toBe(200);
    expect(elementText(reply.text, 'ResultCode')).toBe('1');
  });
});

describe('a failure of the service itself', () => {
  it('is a Server fault saying only "Internal Error", logged in full, with no row left', async () => {
    const before = await service.videoCount();
    const logged = logLines.length;
    const lift = await refuseVideoInserts(service.db, service.context.stores.dialect, 'disk full');
    try {
      const reply = await soapPost(service, envelope(ENV_12, goodPost()), SOAP_12_HEADERS);
      expectFault(reply, '1.2', 'Receiver', /^Internal Error$/);
      expect(reply.text).not.toContain('disk full');
    } finally {
      await lift();
    }
    expect(logLines.slice(logged).some((line) => line.includes('unhandled error') && line.includes('disk full'))).toBe(true);
    expect(await service.videoCount()).toBe(before);
  });
});

describe('XML attacks are refused before anything is expanded or read', () => {
  /** A Post whose VideoTitle is raw XML (an entity reference), not escaped text. */
  const postWithTitle = (title: string) =>
    postElement(service.auth(), { VideoTitle: 'TITLE', SourceFileGetType: '1' }).replace('TITLE', title);

  it('refuses an entity-expansion bomb (billion laughs) as a DTD, fast and with no row', async () => {
    // lol9 expands to 10^9 "lol"s: a parser that expands entities would need gigabytes.
    const entities = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
    ];
    const payload = `<?xml version="1.0"?><!DOCTYPE soap:Envelope [${entities.join('')}]><soap:Envelope xmlns:soap="${ENV_11}"><soap:Body>${postWithTitle('&lol9;')}</soap:Body></soap:Envelope>`;
    const before = await service.videoCount();
    const started = performance.now();
    const reply = await soapPost(service, payload, SOAP_11_HEADERS);
    expectFault(reply, '1.1', 'Client', /DTDs are not allowed/);
    expect(reply.text).not.toContain('lollol');
    // Not a speed target: only a guard that nothing was expanded before the refusal.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await service.videoCount()).toBe(before);
  });

  it.each([
    ['external general entity', (file: string) => `<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM "file://${file}">]>`, '&xxe;'],
    ['external parameter entity', (file: string) => `<!DOCTYPE soap:Envelope [<!ENTITY % xxe SYSTEM "file://${file}"> %xxe;]>`, 'x'],
  ] as const)('refuses an %s pointing at a local file (XXE)', async (_name, doctype, title) => {
    for (const [version, ns, headers] of [
      ['1.1', ENV_11, SOAP_11_HEADERS],
      ['1.2', ENV_12, SOAP_12_HEADERS],
    ] as const) {
      const payload = `<?xml version="1.0" encoding="utf-8"?>${doctype(secretFile)}<soap:Envelope xmlns:soap="${ns}"><soap:Body>${postWithTitle(title)}</soap:Body></soap:Envelope>`;
      const before = await service.videoCount();
      expectFault(await soapPost(service, payload, headers), version, version === '1.1' ? 'Client' : 'Sender', /DTDs are not allowed/);
      expect(await service.videoCount()).toBe(before);
    }
  });

  it('refuses an undeclared entity reference without a DTD as not well-formed', async () => {
    expectFault(await soapPost(service, envelope(ENV_11, postWithTitle('&xxe;')), SOAP_11_HEADERS), '1.1', 'Client', /not well-formed XML/);
  });
});
