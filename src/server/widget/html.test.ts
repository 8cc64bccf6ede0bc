import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript } from './html';

describe('escapeHtml', () => {
  it('leaves no character that starts markup or ends an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe('&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;');
  });
});

describe('jsonForScript', () => {
  const hostile = { a: '</script><script>alert(1)</script>', b: '<!-- x -->', c: 'a & b', d: 'line\u2028sep\u2029' };

  it('cannot close the script element or open a comment, yet parses back to the same value', () => {
    const text = jsonForScript(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(hostile);
  });
});
