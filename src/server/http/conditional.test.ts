import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, preconditionFails } from './conditional';

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

describe('preconditionFails', () => {
  const modified = Date.parse('2026-01-02T03:04:05Z');

  it('compares If-Match strongly: only the same strong tag or * passes', () => {
    expect(preconditionFails({ 'if-match': '"a", "b"' }, '"b"', modified)).toBe(false);
    expect(preconditionFails({ 'if-match': '*' }, '"b"', modified)).toBe(false);
    expect(preconditionFails({ 'if-match': 'W/"b"' }, '"b"', modified)).toBe(true);
    expect(preconditionFails({ 'if-match': '"b"' }, 'W/"b"', modified)).toBe(true);
    expect(preconditionFails({ 'if-match': '' }, '"b"', modified)).toBe(true);
  });

  it('reads If-Unmodified-Since only without If-Match, to the second', () => {
    expect(preconditionFails({ 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, '"b"', modified)).toBe(true);
    expect(preconditionFails({ 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, '"b"', modified + 999)).toBe(false);
    expect(preconditionFails({ 'if-unmodified-since': 'soon' }, '"b"', modified)).toBe(false);
    expect(preconditionFails({ 'if-match': '"b"', 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, '"b"', modified)).toBe(false);
  });
});
