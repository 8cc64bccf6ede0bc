import type { AuthMsg } from '../../shared/apiReplies';
import { ServiceError } from '../errors';
import { openEnvelope } from './envelope';
import { isSoapFault, SoapFault } from './faults';
import type { SoapVersion } from './versions';
import { SERVICE_NS } from './wsdl';
import { attributeKey, escapeXml, parseXml, qualifiedName, type XmlElement } from './xml';

const CREDENTIAL_FIELDS = ['AppId', 'Timestamp', 'Token'] as const;
const VIDEO_INFO_FIELDS = ['VideoTitle', 'Description', 'Tags', 'Actors', 'CreateUser', 'SourceFileGetType', 'SourceFilePath'] as const;

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** `xsi:nil="true"` is how .NET and JAX-WS send a null string; it means the field is absent. */
function isNil(element: XmlElement): boolean {
  const nil = element.attributes.get(attributeKey(XSI_NS, 'nil'))?.trim();
  return nil === 'true' || nil === '1';
}

/**
 * The named children of `parent`, each allowed once. Anything the WSDL does not declare is
 * refused by name rather than ignored, so a misspelt or unqualified field (a hand-written
 * envelope forgetting `xmlns`) is a clear fault instead of a silently lost value.
 */
function childrenByName<N extends string>(parent: XmlElement, allowed: readonly N[]): Map<N, XmlElement> {
  const found = new Map<N, XmlElement>();
  for (const child of parent.children) {
    const name = allowed.find((candidate) => candidate === child.local);
    if (child.uri !== SERVICE_NS || name === undefined) {
      throw new SoapFault(
        'BAD_MESSAGE',
        `${parent.local} has no element ${qualifiedName(child)}; expected ${allowed.join(', ')} in ${SERVICE_NS}`,
      );
    }
    if (found.has(name)) throw new SoapFault('BAD_MESSAGE', `${name} is given more than once`);
    found.set(name, child);
  }
  if (parent.text.trim() !== '') throw new SoapFault('BAD_MESSAGE', `${parent.local} holds text outside its elements`);
  return found;
}

function textOf(element: XmlElement): string | undefined {
  if (isNil(element)) return undefined;
  if (element.children.length > 0) throw new SoapFault('BAD_MESSAGE', `${element.local} must hold text only`);
  return element.text;
}

/**
 * Maps a `Post` wrapper element to the same named parameters the web API reads from its form,
 * so one registration (api/postVideo.ts) applies every rule. Only the XML's shape is checked
 * here; what the values mean (required, cut to length, 1 or 2) is the registration's business.
 */
function postParams(operation: XmlElement): ReadonlyMap<string, string> {
  if (operation.uri !== SERVICE_NS || operation.local !== 'Post') throw new SoapFault('UNKNOWN_OPERATION', qualifiedName(operation));
  const params = new Map<string, string>();
  const post = childrenByName(operation, [...CREDENTIAL_FIELDS, 'VideoInfo']);
  for (const name of CREDENTIAL_FIELDS) {
    const element = post.get(name);
    const value = element && textOf(element);
    if (value !== undefined) params.set(name, value);
  }
  const videoInfo = post.get('VideoInfo');
  if (videoInfo && !isNil(videoInfo)) {
    const fields = childrenByName(videoInfo, VIDEO_INFO_FIELDS);
    for (const name of VIDEO_INFO_FIELDS) {
      const element = fields.get(name);
      const value = element && textOf(element);
      if (value !== undefined) params.set(name, value);
    }
  }
  return params;
}

/** Both are XML characters, and the second may not stand in a name: bad bytes in markup leave no readable call. */
const SUBSTITUTES = ['\uFFFD', '\uE000'] as const;

/**
 * The parameters of the `Post` call in a SOAP message. Bytes that are not UTF-8 make it a Fault,
 * unless they are only in the text of parameters: the call is readable then, and is refused like
 * the web API's form, with 106 naming the parameter. Read twice with different substitutes for
 * the bad bytes, those parameters are the ones whose values differ.
 */
export function readPost(bytes: Buffer, version: SoapVersion): ReadonlyMap<string, string> {
  try {
    return postParams(openEnvelope(parseXml(bytes), version));
  } catch (error) {
    if (!isSoapFault(error) || error.kind !== 'NOT_UTF8') throw error;
    const [one, other] = SUBSTITUTES.map((substitute) => {
      try {
        return postParams(openEnvelope(parseXml(bytes, substitute), version));
      } catch {
        return undefined;
      }
    });
    const name = one && other ? [...one.keys()].find((key) => one.get(key) !== other.get(key)) : undefined;
    if (name === undefined) throw error;
    throw new ServiceError('INVALID_PARAMETER', `${name} is not valid UTF-8`);
  }
}

/** The `PostResponse` body element; `VideoId` is left out when there is none, as the web API does. */
export function postResponseXml(authMsg: AuthMsg, videoId?: string): string {
  return (
    `<PostResponse xmlns="${SERVICE_NS}"><PostResult>` +
    `<AuthMsg><ResultCode>${escapeXml(authMsg.ResultCode)}</ResultCode><ResultMessage>${escapeXml(authMsg.ResultMessage)}</ResultMessage></AuthMsg>` +
    (videoId === undefined ? '' : `<VideoId>${escapeXml(videoId)}</VideoId>`) +
    '</PostResult></PostResponse>'
  );
}
