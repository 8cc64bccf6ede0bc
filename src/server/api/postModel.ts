import { ServiceError } from '../errors';
import { isHttpUrl } from '../net/urls';
import type { Video } from '../storage/videos';
import { SourceFileGetType } from '../../shared/videoStatus';

/** Maximum lengths of the Post model, in Unicode code points (spec, Limits). */
export const POST_LIMITS = {
  VideoTitle: 50,
  Description: 400,
  Tags: 60,
  TagCount: 5,
  Actors: 50,
  CreateUser: 50,
  SourceFilePath: 200,
} as const;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Keeps at most `max` code points. When the cut would split a grapheme (an emoji with a
 * skin tone or a ZWJ family, a flag), the whole grapheme goes, so no broken glyph is stored.
 */
export function cutToCodePoints(text: string, max: number): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= max) return text;
  let kept = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    const size = Array.from(segment).length;
    if (count + size > max) break;
    kept += segment;
    count += size;
  }
  // One grapheme longer than the whole limit (a letter under hundreds of combining marks) would
  // otherwise cut a required title to nothing; there a plain code-point cut is the lesser harm.
  return kept === '' ? codePoints.slice(0, max).join('') : kept;
}

/**
 * Tags: split on commas (the full-width "，" that Chinese keyboards type counts too), drop
 * empty ones, keep the first five, join with ",", then cut to 60 code points without leaving
 * a trailing comma.
 */
export function normalizeTags(raw: string): string {
  const tags = raw
    .split(/[,，]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
    .slice(0, POST_LIMITS.TagCount);
  return cutToCodePoints(tags.join(','), POST_LIMITS.Tags).replace(/,+$/, '');
}

/** The fields a registration stores, named as the video store names them. */
export type PostModel = Pick<Video, 'title' | 'description' | 'tags' | 'actors' | 'createUser' | 'sourceGetType' | 'sourcePath'>;

/** Reads one optional form field; the same name given twice is refused rather than guessed. */
export type FieldReader = (name: string) => string | undefined;

/** Applies every rule of the spec's Post model: required fields, cuts, and the type/path pairing. */
export function parsePostModel(field: FieldReader): PostModel {
  const title = cutToCodePoints((field('VideoTitle') ?? '').trim(), POST_LIMITS.VideoTitle);
  if (title === '') throw new ServiceError('MISSING_PARAMETER', 'VideoTitle');

  const typeText = field('SourceFileGetType');
  if (typeText === undefined || typeText.trim() === '') throw new ServiceError('MISSING_PARAMETER', 'SourceFileGetType');
  const typeTrimmed = typeText.trim();
  if (typeTrimmed !== '1' && typeTrimmed !== '2') {
    throw new ServiceError('INVALID_PARAMETER', 'SourceFileGetType must be 1 (upload widget) or 2 (server download)');
  }
  const sourceGetType = Number(typeTrimmed) as SourceFileGetType;

  let sourcePath = '';
  if (sourceGetType === SourceFileGetType.Download) {
    sourcePath = cutToCodePoints((field('SourceFilePath') ?? '').trim(), POST_LIMITS.SourceFilePath);
    if (sourcePath === '') throw new ServiceError('MISSING_PARAMETER', 'SourceFilePath (required when SourceFileGetType is 2)');
    if (!isHttpUrl(sourcePath)) throw new ServiceError('INVALID_PARAMETER', 'SourceFilePath must be an http or https URL');
  }

  return {
    title,
    description: cutToCodePoints((field('Description') ?? '').trim(), POST_LIMITS.Description),
    tags: normalizeTags(field('Tags') ?? ''),
    actors: cutToCodePoints((field('Actors') ?? '').trim(), POST_LIMITS.Actors),
    createUser: cutToCodePoints((field('CreateUser') ?? '').trim(), POST_LIMITS.CreateUser),
    sourceGetType,
    sourcePath,
  };
}
