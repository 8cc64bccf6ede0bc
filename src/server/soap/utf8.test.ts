import { describe, expect, it } from 'vitest';
import { decodeUtf8Replacing } from './utf8';

const bytes = (...values: number[]) => Buffer.from(values);

describe('decodeUtf8Replacing', () => {
  it.each([
    ['ASCII and multi-byte text', Buffer.from('a视频😀\uFFFD', 'utf8')],
    ['a lone continuation byte', bytes(0x61, 0x80, 0x62)],
    ['FF FE', bytes(0xff, 0xfe)],
    ['an overlong slash', bytes(0xc0, 0xaf)],
    ['a truncated three-byte sequence', bytes(0xe8, 0xa7, 0x41)],
    ['a truncated sequence at the end', bytes(0x41, 0xf0, 0x9f, 0x98)],
    ['an encoded surrogate', bytes(0xed, 0xa0, 0x80)],
    ['an overlong three-byte form', bytes(0xe0, 0x80, 0xaf)],
    ['past U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80)],
    ['F5 and above', bytes(0xf5, 0x80, 0xf8, 0xfc, 0xfe)],
    ['a byte order mark, then bad bytes', bytes(0xef, 0xbb, 0xbf, 0xc3, 0x28)],
  ])('replaces exactly what TextDecoder replaces: %s', (_name, input) => {
    expect(decodeUtf8Replacing(input, '\uFFFD')).toBe(new TextDecoder().decode(input));
  });

  it('puts the substitute in place of each ill-formed part, and nowhere else', () => {
    expect(decodeUtf8Replacing(Buffer.concat([Buffer.from('a\uFFFD', 'utf8'), bytes(0xff, 0xe8, 0xa7), Buffer.from('b')]), '#')).toBe(
      'a\uFFFD##b',
    );
  });
});
