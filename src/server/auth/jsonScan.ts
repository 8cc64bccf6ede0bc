/**
 * Where things are in a JSON text, without quoting it. V8's JSON.parse messages may carry the
 * text around an error ("Unexpected token ']', "[1,]" is not valid JSON"), which in APPS_FILE
 * can be part of a secret; this scanner gives the offset and a reason made of fixed words only,
 * and the offset of every member and element, so a problem found after parsing can be placed too.
 */

/** Keys and indexes from the top value down, e.g. `[1, 'appId']`. */
export type JsonPath = readonly (string | number)[];

export type JsonScan = { ok: true; positionOf(path: JsonPath): number } | { ok: false; offset: number; reason: string };

class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
/**
 * Arrays and objects inside one another, at most. An apps file needs four; the scanner recurses
 * once per level, so a file nested 200,000 deep would end it with a RangeError and no position.
 */
const MAX_JSON_DEPTH = 32;

/**
 * Checks `text` as JSON.parse does (ECMA-404: no comments, no trailing commas, no BOM), and
 * refuses nesting deeper than {@link MAX_JSON_DEPTH}; records the offset of each member's key and
 * each array element under its path.
 */
export function scanJson(text: string): JsonScan {
  const positions = new Map<string, number>();
  let at = 0;
  const fail = (reason: string, offset = at): never => {
    throw new ScanError(offset, offset >= text.length ? 'the file ends too early' : reason);
  };
  const skipSpace = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++;
  };
  const expect = (char: string, reason: string) => {
    skipSpace();
    if (text[at] !== char) fail(reason);
    at++;
  };

  function string(): string {
    const start = at;
    at++; // the opening quote
    while (at < text.length) {
      const char = text[at]!;
      if (char === '"') {
        at++;
        // The key is only used as a Map key for the path, never printed.
        return JSON.parse(text.slice(start, at)) as string;
      }
      if (char < ' ') fail('a control character inside a string');
      if (char === '\\') {
        const next = text[at + 1];
        if (next === 'u') {
          HEX4.lastIndex = at + 2;
          if (!HEX4.test(text)) fail('a bad \\u escape inside a string');
          at += 6;
          continue;
        }
        if (next === undefined || !ESCAPES.has(next)) fail('a bad escape inside a string');
        at += 2;
        continue;
      }
      at++;
    }
    return fail('a string that is never closed', start);
  }

  function value(path: (string | number)[]): void {
    skipSpace();
    const char = text[at];
    if ((char === '{' || char === '[') && path.length >= MAX_JSON_DEPTH) fail(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (char === '{') {
      at++;
      skipSpace();
      if (text[at] === '}') return void at++;
      for (;;) {
        skipSpace();
        if (text[at] !== '"') fail('expected a key in double quotes');
        const keyAt = at;
        const key = string();
        const member = [...path, key];
        positions.set(JSON.stringify(member), keyAt);
        expect(':', 'expected : after a key');
        value(member);
        skipSpace();
        if (text[at] === '}') return void at++;
        if (text[at] !== ',') fail('expected , or } after a value');
        at++;
      }
    }
    if (char === '[') {
      at++;
      skipSpace();
      if (text[at] === ']') return void at++;
      for (let index = 0; ; index++) {
        skipSpace();
        positions.set(JSON.stringify([...path, index]), at);
        value([...path, index]);
        skipSpace();
        if (text[at] === ']') return void at++;
        if (text[at] !== ',') fail('expected , or ] after a value');
        at++;
      }
    }
    if (char === '"') return void string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, at)) return void (at += word.length);
    }
    NUMBER.lastIndex = at;
    if (char !== undefined && NUMBER.test(text)) return void (at = NUMBER.lastIndex);
    fail('expected a value');
  }

  try {
    positions.set('[]', 0);
    value([]);
    skipSpace();
    if (at < text.length) fail('more text after the JSON value');
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, offset: error.offset, reason: error.reason };
    throw error;
  }
  return {
    ok: true,
    positionOf(path) {
      // The nearest enclosing place that was recorded: a missing key is reported at its entry.
      for (let depth = path.length; depth > 0; depth--) {
        const found = positions.get(JSON.stringify(path.slice(0, depth)));
        if (found !== undefined) return found;
      }
      return positions.get('[]')!;
    },
  };
}

/** 1-based line and column (in UTF-16 units, as editors count them) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
