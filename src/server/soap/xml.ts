import { SaxesParser, type SaxesTagNS } from 'saxes';
import { isSoapFault, SoapFault } from './faults';
import { decodeUtf8Replacing } from './utf8';

/** Nesting deeper than this is refused: a SOAP `Post` needs five levels, and deep trees only cost. */
export const MAX_XML_DEPTH = 32;

/** One element of a parsed document, with its namespace resolved. */
export interface XmlElement {
  /** Namespace URI ('' when the element has none). */
  uri: string;
  local: string;
  /** Attributes by `{uri}local` (plain `local` for unqualified ones). */
  attributes: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA), without its children's. */
  text: string;
}

/** The key of an attribute in {@link XmlElement.attributes}. */
export function attributeKey(uri: string, local: string): string {
  return uri === '' ? local : `{${uri}}${local}`;
}

/** `{uri}local`, the way faults name an element so the namespace mistake is visible. */
export function qualifiedName(element: Pick<XmlElement, 'uri' | 'local'>): string {
  return element.uri === '' ? element.local : `{${element.uri}}${element.local}`;
}

/**
 * Parses a whole UTF-8 document into a tree, refusing what a SOAP message never needs and an
 * attacker does: any DOCTYPE (so no DTD, no entity declarations, no external entities, no
 * entity expansion), references to undeclared entities, declared encodings other than UTF-8,
 * and nesting beyond {@link MAX_XML_DEPTH}. saxes is a strict XML 1.0 parser that never loads
 * anything; with the DOCTYPE refused outright, not even its text is kept.
 *
 * Bytes that are not UTF-8 are refused, unless `substitute` is given: then each ill-formed part
 * reads as that text (see {@link decodeUtf8Replacing}), so the caller can find where they were.
 */
export function parseXml(bytes: Buffer, substitute?: string): XmlElement {
  let text: string;
  if (substitute !== undefined) text = decodeUtf8Replacing(bytes, substitute);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new SoapFault('NOT_UTF8');
    }
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('xmldecl', (decl) => {
    if (decl.encoding !== undefined && !/^utf-?8$/i.test(decl.encoding)) throw new SoapFault('NOT_UTF8');
  });
  parser.on('doctype', () => {
    throw new SoapFault('DOCTYPE');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (stack.length >= MAX_XML_DEPTH) throw new SoapFault('TOO_DEEP');
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) {
      // Namespace declarations are resolved by saxes already; they are not data.
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attributes.set(attributeKey(attribute.uri, attribute.local), attribute.value);
    }
    const element: XmlElement = { uri: tag.uri, local: tag.local, attributes, children: [], text: '' };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  const addText = (data: string) => {
    const current = stack.at(-1);
    if (current) current.text += data;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('error', (error) => {
    throw new SoapFault('NOT_XML', error.message);
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (isSoapFault(error)) throw error;
    throw new SoapFault('NOT_XML', error instanceof Error ? error.message : undefined);
  }
  if (!root) throw new SoapFault('NOT_XML', 'no root element');
  return root;
}

/** Characters XML 1.0 cannot carry at all; a reply must stay well-formed whatever was stored. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for element content, or (`inAttribute`) for a double-quoted attribute value. */
export function escapeXml(value: string, inAttribute = false): string {
  const text = value.replace(NOT_XML_CHAR, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return inAttribute ? text.replace(/"/g, '&quot;') : text;
}
