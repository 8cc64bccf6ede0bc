import { describe, expect, it } from 'vitest';
import { chooseRenditions } from './renditions';

const sizes = (width: number, height: number) =>
  chooseRenditions(width, height).map((rendition) => `${rendition.width}x${rendition.height} ${rendition.label} ${rendition.videoKbps}`);

describe('chooseRenditions', () => {
  it('gives the three highest rungs that fit, best first', () => {
    expect(sizes(1920, 1080)).toEqual(['1920x1080 1080P 4500', '1280x720 720P 2500', '852x480 480P 1000']);
    expect(sizes(3840, 2160)).toEqual(['1920x1080 1080P 4500', '1280x720 720P 2500', '852x480 480P 1000']);
    expect(sizes(1280, 720)).toEqual(['1280x720 720P 2500', '852x480 480P 1000', '640x360 360P 600']);
  });

  it('never upscales: a source between rungs gets only the rungs below it', () => {
    expect(sizes(640, 360)).toEqual(['640x360 360P 600', '426x240 240P 300']);
    expect(sizes(700, 300)).toEqual(['560x240 240P 300']);
  });

  it('counts the short side, so a portrait video gets the same rungs as its landscape twin', () => {
    expect(sizes(1080, 1920)).toEqual(['1080x1920 1080P 4500', '720x1280 720P 2500', '480x852 480P 1000']);
  });

  it('gives a source below the lowest rung one rendition at its own (even) size', () => {
    expect(sizes(160, 90)).toEqual(['160x90 90P 300']);
    expect(sizes(175, 97)).toEqual(['172x96 96P 300']);
  });

  it('keeps every size even, as H.264 4:2:0 needs', () => {
    for (const [width, height] of [
      [1279, 719],
      [853, 481],
      [1000, 563],
      [241, 241],
    ] as const) {
      for (const rendition of chooseRenditions(width, height)) {
        expect((rendition.width % 2) + (rendition.height % 2)).toBe(0);
        expect(rendition.width).toBeLessThanOrEqual(width);
        expect(rendition.height).toBeLessThanOrEqual(height);
      }
    }
  });
});
