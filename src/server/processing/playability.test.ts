import { describe, expect, it } from 'vitest';
import { remuxPlan } from './playability';
import type { StreamCodecs } from './probe';

const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';
const h264 = (profile: string, pixelFormat = 'yuv420p') => ({
  index: 0,
  codec: 'h264',
  profile,
  pixelFormat,
  firstFrameHidden: false,
  openGop: false,
});
const codecs = (overrides: Partial<StreamCodecs> = {}): StreamCodecs => ({
  container: MP4,
  video: h264('High'),
  audio: { index: 1, codec: 'aac' },
  ...overrides,
});

describe('remuxPlan', () => {
  it('remuxes H.264 up to High in 4:2:0 from MP4/MOV, copying AAC', () => {
    for (const profile of ['Constrained Baseline', 'Baseline', 'Main', 'High']) {
      expect(remuxPlan(codecs({ video: h264(profile) }))).toEqual({ videoStream: 0, audioStream: 1, audio: 'copy' });
    }
    expect(remuxPlan(codecs({ video: h264('High', 'yuvj420p') }))?.audio).toBe('copy');
  });

  it('encodes other audio to AAC beside the copied picture, and takes a source without audio as it is', () => {
    expect(remuxPlan(codecs({ audio: { index: 2, codec: 'pcm_s16le' } }))).toEqual({ videoStream: 0, audioStream: 2, audio: 'encode' });
    expect(remuxPlan(codecs({ audio: undefined }))).toEqual({ videoStream: 0, audio: 'none' });
  });

  it('leaves to the encode what browsers refuse or a copy cannot carry', () => {
    const refused: StreamCodecs[] = [
      codecs({ video: h264('High 10', 'yuv420p10le') }),
      codecs({ video: h264('High 4:4:4 Predictive', 'yuv444p') }),
      codecs({ video: h264('High 4:2:2', 'yuv422p') }),
      codecs({ video: { ...h264('Main'), codec: 'hevc' } }),
      codecs({ container: 'matroska,webm', video: { ...h264('Profile 0'), codec: 'vp9' } }),
      codecs({ container: 'avi' }),
    ];
    for (const source of refused) expect(remuxPlan(source)).toBeUndefined();
  });

  it('encodes a cut whose edit list hides its first frames, and open GOPs; remuxes B-frames in closed GOPs', () => {
    expect(remuxPlan(codecs({ video: { ...h264('High'), firstFrameHidden: true } }))).toBeUndefined();
    expect(remuxPlan(codecs({ video: { ...h264('High'), openGop: true } }))).toBeUndefined();
    expect(remuxPlan(codecs({ video: h264('High') }))).toBeDefined();
  });
});
