import { describe, expect, it } from 'vitest';
import { lineAndColumn, scanJson } from './jsonScan';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('scanJson', () => {
  // Each judged by JSON.parse too: the scanner must agree with it on what is JSON.
  it.each([
    '[]',
    ' {} ',
    '[1, -0.5e+3, 0, true, false, null, "a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"]',
    '{"__proto__": {"a": [[]]}}',
    '"x"',
    '\r\n[\t1\n]\r\n',
    '',
    '[',
    '[1,]',
    '{"a" 1}',
    '{"a":1,}',
    '{a:1}',
    "['a']",
    '01',
    '1.',
    '.5',
    '-',
    '+1',
    '1e',
    'tru',
    'nul',
    '"\\x"',
    '"\\u12"',
    '"a\tb"',
    '[1 2]',
    '\uFEFF[]',
    '[]]',
    'NaN',
  ])('agrees with JSON.parse on %j', (text) => {
    expect(scanJson(text).ok).toBe(parses(text));
  });

  it('gives the offset of each key and element, or of the nearest enclosing one', () => {
    const text = '[\n  {"appId": "a", "list": [1, 2]}\n]';
    const scan = scanJson(text);
    if (!scan.ok) throw new Error('expected valid JSON');
    expect(scan.positionOf([0])).toBe(4);
    expect(scan.positionOf([0, 'appId'])).toBe(5);
    expect(scan.positionOf([0, 'list', 1])).toBe(text.indexOf('2'));
    expect(scan.positionOf([0, 'missing'])).toBe(4);
  });
});

describe('lineAndColumn', () => {
  it('counts from 1, with \\n or \\r\\n line ends', () => {
    expect(lineAndColumn('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('a\r\nbc', 4)).toEqual({ line: 2, column: 2 });
  });
});
