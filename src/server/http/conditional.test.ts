import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from './conditional';

describe('ifNoneMatchHits', () => {
  it('matches the tag in a list, weakly on either side', () => {
    expect(ifNoneMatchHits('"a", "b"', '"b"')).toBe(true);
    expect(ifNoneMatchHits('W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchHits('"b"', 'W/"b"')).toBe(true);
  });

  it('matches * and nothing else', () => {
    expect(ifNoneMatchHits('*', '"b"')).toBe(true);
    expect(ifNoneMatchHits('"a"', '"b"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"b"')).toBe(false);
    expect(ifNoneMatchHits('', '"b"')).toBe(false);
  });
});
