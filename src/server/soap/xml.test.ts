import { describe, expect, it } from 'vitest';
import { MAX_XML_DEPTH, escapeXml, parseXml } from './xml';

const parse = (text: string) => parseXml(Buffer.from(text, 'utf8'));

describe('parseXml', () => {
  it('resolves namespaces of elements and attributes, whatever the prefixes, and keeps CDATA as text', () => {
    const root = parse('<p:a xmlns:p="urn:p" p:x="1" y="2"><b xmlns="urn:d">t<![CDATA[<c>]]></b></p:a>');
    expect(root).toMatchObject({ uri: 'urn:p', local: 'a', text: '' });
    expect([...root.attributes]).toEqual([
      ['{urn:p}x', '1'],
      ['y', '2'],
    ]);
    expect(root.children[0]).toMatchObject({ uri: 'urn:d', local: 'b', text: 't<c>', children: [] });
  });

  it('reads a UTF-8 byte order mark and the five predefined entities and character references', () => {
    expect(parseXml(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<a>&lt;&amp;&#x897F;&#28246;</a>')])).text).toBe('<&西湖');
  });

  it(`allows ${MAX_XML_DEPTH} levels and refuses one more`, () => {
    const nest = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);
    expect(() => parse(nest(MAX_XML_DEPTH))).not.toThrow();
    expect(() => parse(nest(MAX_XML_DEPTH + 1))).toThrow(/nests elements too deeply/);
  });

  it.each([
    ['a DOCTYPE even without entities', '<!DOCTYPE a><a/>', /DTDs are not allowed/],
    ['an undeclared entity', '<a>&nbsp;</a>', /not well-formed XML: 1:\d+: undefined entity/],
    ['two roots', '<a/><b/>', /only one root/],
    ['a declared encoding other than UTF-8', '<?xml version="1.0" encoding="ISO-8859-1"?><a/>', /UTF-8/],
    ['an unbound prefix', '<x:a/>', /not well-formed XML: .*unbound namespace prefix/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parse(text)).toThrow(message);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => parseXml(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]))).toThrow(/UTF-8/);
  });
});

describe('escapeXml', () => {
  it('escapes markup, quotes only in attributes, and replaces characters XML cannot carry', () => {
    expect(escapeXml('a<b>&"c"')).toBe('a&lt;b&gt;&amp;"c"');
    expect(escapeXml('"q"', true)).toBe('&quot;q&quot;');
    expect(escapeXml('x\u0000y\u0008z\uFFFE😀\t\uD800')).toBe('x\uFFFDy\uFFFDz\uFFFD😀\t\uFFFD');
    // What escapeXml writes, the strict parser reads back unchanged.
    expect(parse(`<a>${escapeXml('<&>西湖😀')}</a>`).text).toBe('<&>西湖😀');
  });
});
