import type { IncomingHttpHeaders } from 'node:http';
import { SoapFault } from './faults';

export type SoapVersion = '1.1' | '1.2';

/** The envelope namespace is what tells the versions apart inside a message. */
export const ENVELOPE_NS = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
} as const satisfies Record<SoapVersion, string>;

/** Reply content types; each version has its own media type (SOAP 1.1 §6.1.1, SOAP 1.2 Part 2 §7.1.4). */
export const REPLY_CONTENT_TYPE = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
} as const satisfies Record<SoapVersion, string>;

/** What the HTTP headers say about a SOAP request before its body is read. */
export interface SoapRequestHead {
  version: SoapVersion;
  /** SOAP 1.1's `SOAPAction` header or SOAP 1.2's `action` media-type parameter, unquoted; 1.2 may omit it. */
  action: string | undefined;
}

interface MediaType {
  essence: string;
  parameters: Map<string, string>;
}

function parseMediaType(header: string): MediaType {
  const [essence = '', ...rest] = header.split(';');
  const parameters = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    parameters.set(part.slice(0, eq).trim().toLowerCase(), unquote(part.slice(eq + 1).trim()));
  }
  return { essence: essence.trim().toLowerCase(), parameters };
}

/** SOAPAction values are quoted by the rules (WS-I BP R2744), but old clients send them bare. */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** The version a Content-Type names, if any; a Fault is written in it even when the request is refused. */
export function requestVersion(headers: IncomingHttpHeaders): SoapVersion | undefined {
  const { essence } = parseMediaType(headers['content-type'] ?? '');
  return essence === 'text/xml' ? '1.1' : essence === 'application/soap+xml' ? '1.2' : undefined;
}

/**
 * The version comes from the media type alone, as SOAP's HTTP bindings define it; a body that
 * disagrees is a VersionMismatch later. A SOAP 1.1 request without `SOAPAction` is refused:
 * the header is what SOAP 1.1 routes by, and ASP.NET services refuse it likewise.
 */
export function readRequestHead(headers: IncomingHttpHeaders): SoapRequestHead {
  const type = parseMediaType(headers['content-type'] ?? '');
  const version = requestVersion(headers);
  if (!version) throw new SoapFault('UNSUPPORTED_MEDIA_TYPE', type.essence === '' ? 'none given' : type.essence);
  const charset = type.parameters.get('charset');
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new SoapFault('NOT_UTF8', `charset ${charset}`);
  if (version === '1.2') return { version, action: type.parameters.get('action') };
  const soapAction = headers['soapaction'];
  if (typeof soapAction !== 'string') throw new SoapFault('MISSING_ACTION');
  return { version, action: unquote(soapAction.trim()) };
}
