import { describe, expect, it } from 'vitest';
import { PICTURE_SIZES, pictureOutputs, posterTime } from './pictures';

describe('posterTime', () => {
  it('takes a tenth of the way in, at most 5 s, and the first frame of very short videos', () => {
    expect(posterTime(0.4)).toBe(0);
    expect(posterTime(2)).toBe(0.2);
    expect(posterTime(30)).toBe(3);
    expect(posterTime(3600)).toBe(5);
  });
});

describe('pictureOutputs', () => {
  it('fits the default picture in 640×640 with the shown aspect, never upscaled', () => {
    expect(pictureOutputs(1280, 720)[0]).toMatchObject({ file: 'poster.jpg', width: 640, height: 360 });
    expect(pictureOutputs(1080, 1920)[0]).toMatchObject({ width: 360, height: 640 });
    expect(pictureOutputs(320, 240)[0]).toMatchObject({ width: 320, height: 240 });
  });

  it('scales each sized picture to cover its box, then crops to exactly the box', () => {
    for (const [width, height] of [
      [1280, 720],
      [1080, 1920],
      [160, 90],
      [3000, 100],
    ] as const) {
      const sized = pictureOutputs(width, height).slice(1);
      expect(sized.map((out) => out.file)).toEqual(Object.keys(PICTURE_SIZES).map((n) => `poster-t${n}.jpg`));
      for (const [index, box] of Object.values(PICTURE_SIZES).entries()) {
        const out = sized[index]!;
        expect({ width: out.width, height: out.height }).toEqual(box);
        expect(out.scaleWidth).toBeGreaterThanOrEqual(box.width);
        expect(out.scaleHeight).toBeGreaterThanOrEqual(box.height);
        // One side fits exactly (give or take rounding) and the aspect is the source's.
        expect(Math.min(out.scaleWidth - box.width, out.scaleHeight - box.height)).toBeLessThanOrEqual(1);
        expect(Math.abs(out.scaleWidth / out.scaleHeight - width / height) / (width / height)).toBeLessThan(0.02);
      }
    }
  });
});
