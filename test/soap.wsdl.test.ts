import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';
import { ENV_11, SOAP_11_HEADERS, SOAP_PATH, envelope, postElement, soapPost } from './support/soap';

// libxml2's xmllint (Debian libxml2-utils, installed by .ci/run) checks the description: a
// validator nobody here wrote, reading the schema exactly as the WSDL publishes it.
const run = promisify(execFile);

let service: TestService;
let dir: string;
let wsdl: string;
beforeAll(async () => {
  service = await startTestService({ env: { PUBLIC_URL: 'https://video.example.com/base' } });
  dir = mkdtempSync(join(tmpdir(), 'ovu-wsdl-'));
  const res = await fetch(`${service.address}${SOAP_PATH}?wsdl`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
  wsdl = await res.text();
  writeFileSync(join(dir, 'service.wsdl'), wsdl);
  // The embedded schema as a standalone document: the namespaces it uses are declared on the WSDL root.
  const schema = /<s:schema\b[\s\S]*<\/s:schema>/
    .exec(wsdl)![0]
    .replace('<s:schema ', '<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://tempuri.org/" ');
  writeFileSync(join(dir, 'schema.xsd'), schema);
});
afterAll(async () => {
  await service.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs xmllint; resolves with its exit code and output instead of throwing on a non-zero code. */
async function xmllint(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('xmllint', ['--nonet', ...args]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** Validates one element (as its own document) against the WSDL's embedded schema. */
async function validate(name: string, element: string): Promise<{ code: number; output: string }> {
  const file = join(dir, `${name}.xml`);
  writeFileSync(file, element);
  return xmllint(['--noout', '--schema', join(dir, 'schema.xsd'), file]);
}

/** The values of an attribute over every element with this local name, read by xmllint's XPath. */
async function attributeValues(local: string, attribute: string): Promise<string[]> {
  const { code, output } = await xmllint(['--xpath', `//*[local-name()='${local}']/@${attribute}`, join(dir, 'service.wsdl')]);
  expect(code, output).toBe(0);
  return [...output.matchAll(/="([^"]*)"/g)].map((match) => match[1]!);
}

function bodyChild(xml: string, local: string): string {
  return new RegExp(`<${local} xmlns="http://tempuri.org/">[\\s\\S]*</${local}>`).exec(xml)![0];
}

describe('the served WSDL', () => {
  it('is well-formed and names the service at PUBLIC_URL in both SOAP bindings', async () => {
    expect((await xmllint(['--noout', join(dir, 'service.wsdl')])).code).toBe(0);
    expect(await attributeValues('address', 'location')).toEqual([
      'https://video.example.com/base/WebService/VideoService.asmx',
      'https://video.example.com/base/WebService/VideoService.asmx',
    ]);
    expect(await attributeValues('definitions', 'targetNamespace')).toEqual(['http://tempuri.org/']);
  });

  it('embeds an XML Schema that libxml2 compiles and that the .NET fixture request satisfies', async () => {
    const fixture = readFileSync(new URL('./fixtures/soap/dotnet-asmx-post.http', import.meta.url), 'utf8');
    const post = bodyChild(fixture.replace(/\{\{\w+\}\}/g, 'x'), 'Post');
    const result = await validate('dotnet-post', post);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('validates');
  });

  it('rejects through the same schema a Post that breaks it (the check is real)', async () => {
    const bad = postElement({ AppId: 'a' }, { VideoTitle: 't', SourceFileGetType: 'one' });
    const result = await validate('bad-post', bad);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/SourceFileGetType.*not a valid value.*int/);
  });

  it('describes the replies the service sends, success and failure alike', async () => {
    const ok = await soapPost(
      service,
      envelope(ENV_11, postElement(service.auth(), { VideoTitle: 't', SourceFileGetType: '1' })),
      SOAP_11_HEADERS,
    );
    const failed = await soapPost(
      service,
      envelope(ENV_11, postElement({ ...service.auth(), Token: 'x' }, { VideoTitle: 't', SourceFileGetType: '1' })),
      SOAP_11_HEADERS,
    );
    for (const [name, reply] of [
      ['ok', ok],
      ['failed', failed],
    ] as const) {
      const result = await validate(`reply-${name}`, bodyChild(reply.text, 'PostResponse'));
      expect(result.code, result.output).toBe(0);
    }
  });

  it('is document/literal wrapped with every reference resolving (WSDL 1.1 §2, WS-I Basic Profile)', async () => {
    // Messages carry one part named "parameters" whose element is the operation's wrapper.
    expect(await attributeValues('part', 'name')).toEqual(['parameters', 'parameters']);
    expect(await attributeValues('part', 'element')).toEqual(['tns:Post', 'tns:PostResponse']);
    expect(await attributeValues('element', 'name')).toEqual(expect.arrayContaining(['Post', 'PostResponse']));
    expect(await attributeValues('message', 'name')).toEqual(['PostSoapIn', 'PostSoapOut']);
    expect(await attributeValues('input', 'message')).toEqual(['tns:PostSoapIn']);
    expect(await attributeValues('output', 'message')).toEqual(['tns:PostSoapOut']);
    expect(await attributeValues('portType', 'name')).toEqual(['VideoServiceSoap']);
    expect(await attributeValues('binding', 'type')).toEqual(['tns:VideoServiceSoap', 'tns:VideoServiceSoap']);
    expect(await attributeValues('binding', 'name')).toEqual(['VideoServiceSoap', 'VideoServiceSoap12']);
    expect(await attributeValues('port', 'binding')).toEqual(['tns:VideoServiceSoap', 'tns:VideoServiceSoap12']);
    expect(await attributeValues('operation', 'style')).toEqual(['document', 'document']);
    expect(await attributeValues('operation', 'soapAction')).toEqual(['http://tempuri.org/Post', 'http://tempuri.org/Post']);
    expect(await attributeValues('body', 'use')).toEqual(['literal', 'literal', 'literal', 'literal']);
  });

  it('answers ?WSDL in any case, and a bare GET with where the description is', async () => {
    expect(await (await fetch(`${service.address}${SOAP_PATH}?WSDL`)).text()).toBe(wsdl);
    const bare = await fetch(`${service.address}${SOAP_PATH}`);
    expect(bare.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await bare.text()).toContain('https://video.example.com/base/WebService/VideoService.asmx?wsdl');
  });
});
