import type { ServerResponse } from 'node:http';
import { BASE_HEADERS } from '../http/reply';
import { SoapFault } from './faults';
import { ENVELOPE_NS, REPLY_CONTENT_TYPE, type SoapVersion } from './versions';
import { attributeKey, escapeXml, qualifiedName, type XmlElement } from './xml';

/** Header blocks addressed to these roles are ours to honour (SOAP 1.1 `actor`, SOAP 1.2 `role`). */
const OUR_ROLES = new Set([
  'http://schemas.xmlsoap.org/soap/actor/next',
  'http://www.w3.org/2003/05/soap-envelope/role/next',
  'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver',
]);

/** XML's white space (S): what may stand between the elements of an Envelope, a Header and a Body. */
const WHITE_SPACE = /^[ \t\r\n]*$/;

/**
 * Checks the envelope against the version the Content-Type announced and returns the one
 * element in its Body (document/literal wrapped: the operation's wrapper element).
 * The service understands no header blocks, so one marked mustUnderstand for it is a fault
 * (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3); other header blocks are ignored. Text directly
 * inside the Envelope, Header or Body is refused: SOAP allows only elements there, and a client
 * that put a value there would otherwise see it dropped without a word.
 */
export function openEnvelope(root: XmlElement, version: SoapVersion): XmlElement {
  const ns = ENVELOPE_NS[version];
  if (root.local !== 'Envelope') throw new SoapFault('NOT_ENVELOPE', `the root element is ${qualifiedName(root)}`);
  if (root.uri !== ns) throw new SoapFault('VERSION_MISMATCH', `expected ${ns}, got ${root.uri || 'no namespace'}`);
  const parts = root.children;
  const header = parts[0]?.uri === ns && parts[0].local === 'Header' ? parts[0] : undefined;
  const body = parts[header ? 1 : 0];
  if (!body || body.uri !== ns || body.local !== 'Body' || parts.length !== (header ? 2 : 1)) {
    throw new SoapFault('NOT_ENVELOPE', 'an Envelope holds an optional Header and then one Body');
  }
  for (const part of header ? [root, header, body] : [root, body]) {
    if (!WHITE_SPACE.test(part.text)) throw new SoapFault('NOT_ENVELOPE', `the ${part.local} holds text outside its elements`);
  }
  for (const block of header?.children ?? []) {
    if (mustUnderstand(block, version)) throw new SoapFault('MUST_UNDERSTAND', qualifiedName(block));
  }
  const [operation, ...extra] = body.children;
  if (!operation) throw new SoapFault('UNKNOWN_OPERATION', 'the Body is empty');
  if (extra.length > 0) throw new SoapFault('BAD_MESSAGE', 'the Body must hold exactly one element');
  return operation;
}

function mustUnderstand(block: XmlElement, version: SoapVersion): boolean {
  const ns = ENVELOPE_NS[version];
  const flag = block.attributes.get(attributeKey(ns, 'mustUnderstand'))?.trim();
  if (flag !== '1' && flag !== 'true') return false;
  const role = block.attributes.get(attributeKey(ns, version === '1.1' ? 'actor' : 'role'))?.trim();
  return role === undefined || OUR_ROLES.has(role);
}

/** A whole reply document: the XML declaration, the envelope, an optional Header and the Body. */
export function envelopeXml(version: SoapVersion, body: string, header = ''): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    (header ? `<soap:Header>${header}</soap:Header>` : '') +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

/** SOAP 1.2 renamed two of the four fault classes. */
const FAULT_CODE_1_2 = {
  VersionMismatch: 'VersionMismatch',
  MustUnderstand: 'MustUnderstand',
  Client: 'Sender',
  Server: 'Receiver',
} as const;

/** A Fault in the given version's shape. */
export function faultXml(version: SoapVersion, fault: SoapFault): string {
  const reason = escapeXml(fault.message);
  if (version === '1.1') {
    return envelopeXml(version, `<soap:Fault><faultcode>soap:${fault.code}</faultcode><faultstring>${reason}</faultstring></soap:Fault>`);
  }
  const body =
    `<soap:Fault><soap:Code><soap:Value>soap:${FAULT_CODE_1_2[fault.code]}</soap:Value></soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${reason}</soap:Text></soap:Reason></soap:Fault>`;
  // A SOAP 1.2 VersionMismatch names the envelopes the node does accept (Part 1 §5.4.7).
  const upgrade =
    fault.code === 'VersionMismatch'
      ? `<soap:Upgrade><soap:SupportedEnvelope qname="v12:Envelope" xmlns:v12="${ENVELOPE_NS['1.2']}"/>` +
        `<soap:SupportedEnvelope qname="v11:Envelope" xmlns:v11="${ENVELOPE_NS['1.1']}"/></soap:Upgrade>`
      : '';
  return envelopeXml(version, body, upgrade);
}

/**
 * Sends a SOAP reply. Faults use HTTP 500 in both versions, as ASP.NET services and SOAP 1.1
 * (§6.2) do; clients generated for such services expect exactly that.
 */
export function sendSoap(res: ServerResponse, version: SoapVersion, status: 200 | 500, xml: string): void {
  res.writeHead(status, {
    'Content-Type': REPLY_CONTENT_TYPE[version],
    'Content-Length': Buffer.byteLength(xml),
    ...BASE_HEADERS,
  });
  res.end(xml);
}
