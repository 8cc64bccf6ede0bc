import { describe, expect, it } from 'vitest';
import { isServiceError, type ErrorName } from '../errors';
import { POST_LIMITS, cutToCodePoints, normalizeTags, parsePostModel, type PostModel } from './postModel';

const FAMILY = '👨‍👩‍👧‍👦'; // one grapheme of 7 code points joined by ZWJ
const codePoints = (text: string) => Array.from(text).length;

function parse(fields: Record<string, string>): PostModel {
  return parsePostModel((name) => fields[name]);
}

function failure(fields: Record<string, string>): { kind: ErrorName; message: string } {
  try {
    parse(fields);
  } catch (error) {
    if (isServiceError(error)) return { kind: error.kind, message: error.resultMessage };
    throw error;
  }
  throw new Error('parsePostModel accepted the fields');
}

describe('cutToCodePoints', () => {
  it('keeps text at the limit unchanged', () => {
    expect(cutToCodePoints('中'.repeat(50), 50)).toBe('中'.repeat(50));
  });

  it('counts Chinese characters as one each (not bytes)', () => {
    expect(cutToCodePoints('视'.repeat(51), 50)).toBe('视'.repeat(50));
  });

  it('counts an emoji outside the BMP as one code point (not two UTF-16 units)', () => {
    const text = '😀'.repeat(60);
    expect(cutToCodePoints(text, 50)).toBe('😀'.repeat(50));
    expect('😀'.repeat(50).length).toBe(100);
  });

  it('drops a ZWJ family emoji whole when the cut falls inside it', () => {
    const text = 'a'.repeat(47) + FAMILY + 'tail';
    const cut = cutToCodePoints(text, 50);
    expect(cut).toBe('a'.repeat(47));
  });

  it('keeps a ZWJ family emoji that ends exactly at the cut', () => {
    const text = 'a'.repeat(43) + FAMILY + 'tail';
    expect(cutToCodePoints(text, 50)).toBe('a'.repeat(43) + FAMILY);
  });

  it('never splits a skin-tone emoji or a flag', () => {
    expect(cutToCodePoints('a'.repeat(49) + '👍🏽', 50)).toBe('a'.repeat(49));
    expect(cutToCodePoints('a'.repeat(49) + '🇨🇳', 50)).toBe('a'.repeat(49));
  });

  it('falls back to code points when one grapheme alone is longer than the limit', () => {
    const zalgo = 'Z' + '\u0301'.repeat(80);
    expect(cutToCodePoints(zalgo, 50)).toBe('Z' + '\u0301'.repeat(49));
  });
});

describe('normalizeTags', () => {
  it('keeps the first five tags', () => {
    expect(normalizeTags('一,二,三,四,五,六,七')).toBe('一,二,三,四,五');
  });

  it('takes the full-width comma as a separator and stores the ASCII comma', () => {
    expect(normalizeTags('风景，旅行,美食，音乐')).toBe('风景,旅行,美食,音乐');
  });

  it('drops empty tags and spaces around tags', () => {
    expect(normalizeTags(' 猫 ,, ，狗 , ')).toBe('猫,狗');
  });

  it('cuts the joined tags to 60 code points without a trailing comma', () => {
    const tags = ['标'.repeat(20), '签'.repeat(20), '长'.repeat(19), '短'].join(',');
    // 20 + 1 + 20 + 1 + 19 = 61 > 60: the cut lands right after the third tag's 18th character.
    expect(normalizeTags(tags)).toBe(['标'.repeat(20), '签'.repeat(20), '长'.repeat(18)].join(','));
    const commaAtCut = ['a'.repeat(29), 'b'.repeat(30), 'c'].join(',');
    // The 61st code point is the comma before "c"; nothing may end in a separator.
    expect(normalizeTags(commaAtCut)).toBe(['a'.repeat(29), 'b'.repeat(30)].join(','));
  });

  it('counts emoji tags by code point and keeps graphemes whole', () => {
    // 55 + 1 + 7 = 63: the family emoji does not fit in the 4 code points left, so it goes
    // whole, and the separator left dangling goes with it.
    expect(normalizeTags(['😀'.repeat(55), FAMILY].join(','))).toBe('😀'.repeat(55));
    expect(normalizeTags(['😀'.repeat(52), FAMILY].join(','))).toBe('😀'.repeat(52) + ',' + FAMILY);
  });

  it('gives an empty string for no tags', () => {
    expect(normalizeTags('')).toBe('');
    expect(normalizeTags(' , ，')).toBe('');
  });
});

describe('parsePostModel', () => {
  it('applies every cut of the spec, counting code points', () => {
    const model = parse({
      VideoTitle: '标题😀'.repeat(20),
      Description: '描述'.repeat(300),
      Tags: 'a,b,c,d,e,f',
      Actors: '演员'.repeat(30),
      CreateUser: '用户名🎬'.repeat(20),
      SourceFileGetType: '2',
      SourceFilePath: 'https://media.example/' + '路'.repeat(300) + '.mp4',
    });
    expect(codePoints(model.title)).toBe(POST_LIMITS.VideoTitle);
    expect(model.title).toBe(Array.from('标题😀'.repeat(20)).slice(0, 50).join(''));
    expect(codePoints(model.description)).toBe(400);
    expect(model.tags).toBe('a,b,c,d,e');
    expect(model.actors).toBe('演员'.repeat(25));
    expect(codePoints(model.createUser)).toBe(50);
    expect(codePoints(model.sourcePath)).toBe(200);
    expect(model.sourcePath.startsWith('https://media.example/路')).toBe(true);
  });

  it('keeps short fields as given, trimmed, and defaults the optional ones to empty', () => {
    expect(parse({ VideoTitle: '  我的视频 ', SourceFileGetType: '1' })).toEqual({
      title: '我的视频',
      description: '',
      tags: '',
      actors: '',
      createUser: '',
      sourceGetType: 1,
      sourcePath: '',
    });
  });

  it('stores no SourceFilePath for type 1', () => {
    expect(parse({ VideoTitle: 't', SourceFileGetType: '1', SourceFilePath: 'https://a.example/v.mp4' }).sourcePath).toBe('');
  });

  it.each([
    [{ SourceFileGetType: '1' }, 'MISSING_PARAMETER', 'Missing Parameter: VideoTitle'],
    [{ VideoTitle: ' \t ', SourceFileGetType: '1' }, 'MISSING_PARAMETER', 'Missing Parameter: VideoTitle'],
    [{ VideoTitle: 't' }, 'MISSING_PARAMETER', 'Missing Parameter: SourceFileGetType'],
    [{ VideoTitle: 't', SourceFileGetType: '3' }, 'INVALID_PARAMETER', 'SourceFileGetType must be 1'],
    [{ VideoTitle: 't', SourceFileGetType: 'one' }, 'INVALID_PARAMETER', 'SourceFileGetType must be 1'],
    [{ VideoTitle: 't', SourceFileGetType: '2' }, 'MISSING_PARAMETER', 'Missing Parameter: SourceFilePath'],
    [{ VideoTitle: 't', SourceFileGetType: '2', SourceFilePath: 'ftp://a.example/v.mp4' }, 'INVALID_PARAMETER', 'http or https'],
    [{ VideoTitle: 't', SourceFileGetType: '2', SourceFilePath: 'v.mp4' }, 'INVALID_PARAMETER', 'http or https'],
  ] as const)('refuses %j', (fields, kind, message) => {
    const result = failure(fields);
    expect(result.kind).toBe(kind);
    expect(result.message).toContain(message);
  });
});
