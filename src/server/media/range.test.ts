import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('parseRange', () => {
  it('reads a closed, an open and a suffix range', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'part', start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
  });

  it('clips an end past the file and a suffix longer than the file', () => {
    expect(parseRange('bytes=500-5000', 1000)).toEqual({ kind: 'part', start: 500, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ kind: 'part', start: 0, end: 999 });
  });

  it('calls a range starting at or past the end unsatisfiable', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=1000-1200', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('answers no header, several ranges, another unit or nonsense with the whole file', () => {
    for (const header of [undefined, 'bytes=0-1,5-9', 'items=0-1', 'bytes=9-1', 'bytes=-', 'bytes=a-b', 'bytes= 1-2']) {
      expect(parseRange(header, 1000), String(header)).toEqual({ kind: 'whole' });
    }
  });
});
