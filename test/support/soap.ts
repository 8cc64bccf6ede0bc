import type { TestService } from './service';

export const SOAP_PATH = '/WebService/VideoService.asmx';
export const ENV_11 = 'http://schemas.xmlsoap.org/soap/envelope/';
export const ENV_12 = 'http://www.w3.org/2003/05/soap-envelope';
const TNS = 'http://tempuri.org/';

/** Request headers of each SOAP version for the Post operation, as generated clients send them. */
export const SOAP_11_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${TNS}Post"` };
export const SOAP_12_HEADERS = { 'Content-Type': `application/soap+xml; charset=utf-8; action="${TNS}Post"` };

/** A reply as read off the wire: nothing parsed, so tests see what a client sees. */
export interface SoapReply {
  status: number;
  contentType: string | null;
  text: string;
}

export async function soapPost(service: Pick<TestService, 'address'>, body: string, headers: Record<string, string>): Promise<SoapReply> {
  const res = await fetch(`${service.address}${SOAP_PATH}`, { method: 'POST', headers, body });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A `Post` wrapper element with the given credentials and VideoInfo fields (omitted when absent). */
export function postElement(credentials: Record<string, string>, videoInfo: Record<string, string>): string {
  const fields = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => `<${name}>${escape(value)}</${name}>`)
      .join('');
  return `<Post xmlns="${TNS}">${fields(credentials)}<VideoInfo>${fields(videoInfo)}</VideoInfo></Post>`;
}

export function envelope(ns: string, body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

/** The text of the first element with this local name in a reply (any prefix), unescaped enough for codes and ids. */
export function elementText(xml: string, local: string): string | undefined {
  const match = new RegExp(`<(?:\\w+:)?${local}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${local}>`).exec(xml);
  return match?.[1];
}
