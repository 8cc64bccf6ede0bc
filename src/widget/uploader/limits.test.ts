import { describe, expect, it, vi } from 'vitest';
import { stringTable } from '../../shared/i18n/tables';
import type { ContentLimits } from '../../shared/restrictions';
import { textsFor } from './i18n';
import { checkLimits, containerNameOf, limitHints, sharedPreview } from './limits';
import type { PreviewResult, previewVideo } from './videoPreview';

const T = textsFor(stringTable('en', {}));
const MP4_HEAD = [0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')];
const mp4 = (name = 'clip.mp4') => new File([Uint8Array.from([...MP4_HEAD, ...new Array(100).fill(0)])], name, { type: 'video/mp4' });
/** A preview double that reads this duration (undefined: the browser cannot decode the file). */
const reading = (duration: number | undefined) =>
  vi.fn<typeof previewVideo>(async () =>
    duration === undefined ? { kind: 'none' } : { kind: 'ready', poster: 'data:,', duration, width: 64, height: 48 },
  );

describe('checkLimits', () => {
  it.each<[string, ContentLimits, number | undefined, Awaited<ReturnType<typeof checkLimits>>]>([
    [
      'a container outside accept',
      { accept: ['webm', 'mov'] },
      10,
      { refusal: 'notAccepted', values: { container: 'MP4', accepted: 'WebM, MOV' } },
    ],
    ['a listed container', { accept: ['mp4'] }, 10, null],
    ['under minDuration', { minDuration: 5 }, 4.54, { refusal: 'tooShort', values: { duration: '4.5 s', min: '5 s' } }],
    ['over maxDuration', { maxDuration: 600 }, 601, { refusal: 'tooLong', values: { duration: '10 min 1 s', max: '10 min' } }],
    ['exactly at both limits (inclusive)', { minDuration: 5, maxDuration: 5 }, 5, null],
    [
      'a duration the browser cannot read, while a duration limit is set',
      { maxDuration: 60 },
      undefined,
      { refusal: 'durationUnknown', values: {} },
    ],
    ['an infinite duration (a WebM without one), likewise', { maxDuration: 60 }, Infinity, { refusal: 'durationUnknown', values: {} }],
  ])('%s', async (_case, limits, duration, expected) => {
    expect(await checkLimits(mp4(), limits, reading(duration), T)).toEqual(expected);
  });

  it('reads the duration only when a duration limit is set', async () => {
    const preview = reading(undefined);
    expect(await checkLimits(mp4(), { accept: ['mp4'] }, preview, T)).toBeNull();
    expect(preview).not.toHaveBeenCalled();
  });
});

describe('limitHints', () => {
  it.each<[ContentLimits, string[]]>([
    [{}, []],
    [{ accept: ['mp4', 'webm'], minDuration: 1, maxDuration: 90 }, ['Formats: MP4, WebM.', 'Length: 1 s to 1 min 30 s.']],
    [{ minDuration: 2.5 }, ['Length: at least 2.5 s.']],
    [{ maxDuration: 3600 }, ['Length: at most 1 h.']],
  ])('%j → %j', (limits, hints) => {
    expect(limitHints(limits, T)).toEqual(hints);
  });
});

describe('containerNameOf, on crafted heads', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));
  it.each([
    ['an ftyp box with the QuickTime brand', bytes([0, 0, 0, 20], 'ftypqt  ', [0, 0, 0, 0]), 'mov'],
    ['an old QuickTime file (no ftyp)', bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 8]), 'mov'],
    ['EBML without a DocType (Matroska by default)', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x80]), 'mkv'],
    ['a text file', bytes('hello, not a video'), null],
  ])('%s → %s', (_case, head, name) => {
    expect(containerNameOf(head)).toBe(name);
  });
});

describe('sharedPreview', () => {
  it('reads each file once for every asker, and abandons the reading only when all have', async () => {
    const signals: AbortSignal[] = [];
    const preview = vi.fn<typeof previewVideo>(async (_file, signal) => {
      signals.push(signal);
      return { kind: 'none' } satisfies PreviewResult;
    });
    const shared = sharedPreview(preview);
    const file = mp4();
    const [check, shown] = [new AbortController(), new AbortController()];
    await Promise.all([shared(file, check.signal), shared(file, shown.signal)]);
    expect(preview).toHaveBeenCalledOnce();
    check.abort();
    expect(signals[0]!.aborted).toBe(false);
    shown.abort();
    expect(signals[0]!.aborted).toBe(true);
    await shared(file, new AbortController().signal);
    expect(preview).toHaveBeenCalledTimes(2);
  });
});
