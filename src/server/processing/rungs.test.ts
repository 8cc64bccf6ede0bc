import { describe, expect, it } from 'vitest';
import { rungsPending } from './rungs';

const play = (file: string, height: number, label = `${height}P`) => ({ file, bitrate: 1, label, height, segmented: label !== 'Original' });

describe('rungsPending', () => {
  it('is true while the remux is listed, and until the ladder from the best rung down is complete', () => {
    expect(rungsPending(false, [play('original.mp4', 720, 'Original')])).toBe(true);
    expect(rungsPending(false, [play('720p.mp4', 720)])).toBe(true);
    expect(rungsPending(false, [play('720p.mp4', 720), play('480p.mp4', 480)])).toBe(true);
    expect(rungsPending(false, [play('720p.mp4', 720), play('480p.mp4', 480), play('360p.mp4', 360)])).toBe(false);
    expect(rungsPending(false, [play('360p.mp4', 360), play('240p.mp4', 240)])).toBe(false);
    expect(rungsPending(false, [play('90p.mp4', 90)])).toBe(false);
  });

  it('is true after the lightest rung published first, until the rungs above it are all there', () => {
    expect(rungsPending(false, [play('360p.mp4', 360)])).toBe(true);
    expect(rungsPending(false, [play('720p.mp4', 720), play('360p.mp4', 360)])).toBe(true);
    // The foot alone may be a whole ladder (a source under 360 lines) or the first of three: pending, the job finds out.
    expect(rungsPending(false, [play('240p.mp4', 240)])).toBe(true);
  });

  it('is false for needHandleSepcial (its original is the whole of it) and for a video listing nothing', () => {
    expect(rungsPending(true, [play('original.mp4', 720, 'Original')])).toBe(false);
    expect(rungsPending(false, [])).toBe(false);
  });
});
