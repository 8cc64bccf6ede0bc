import { describe, expect, it } from 'vitest';
import { describeMedia, endOfPackets, endOfStreams, gopFacts, NotAVideoError } from './probe';

const json = (value: unknown) => JSON.stringify(value);
const videoStream = { codec_type: 'video', width: 1920, height: 1080, sample_aspect_ratio: '1:1' };

describe('describeMedia', () => {
  it('reads duration, shown size, audio and bitrate', () => {
    const info = describeMedia(
      json({ streams: [videoStream, { codec_type: 'audio' }], format: { duration: '12.3456', bit_rate: '2500000' } }),
    );
    expect(info).toMatchObject({
      duration: 12.346,
      displayWidth: 1920,
      displayHeight: 1080,
      rotation: 0,
      hasAudio: true,
      bitrateKbps: 2500,
    });
  });

  it('swaps width and height for a quarter turn, from a display matrix or an old rotate tag', () => {
    const turned = { ...videoStream, side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] };
    expect(describeMedia(json({ streams: [turned], format: { duration: '1' } }))).toMatchObject({
      displayWidth: 1080,
      displayHeight: 1920,
    });
    const tagged = { ...videoStream, tags: { rotate: '270' } };
    expect(describeMedia(json({ streams: [tagged], format: { duration: '1' } }))).toMatchObject({
      displayWidth: 1080,
      displayHeight: 1920,
      rotation: 270,
    });
  });

  it('applies a non-square sample aspect ratio (anamorphic DVD)', () => {
    const dvd = { codec_type: 'video', width: 720, height: 576, sample_aspect_ratio: '64:45' };
    expect(describeMedia(json({ streams: [dvd], format: { duration: '1' } }))).toMatchObject({ displayWidth: 1024, displayHeight: 576 });
  });

  it('reads the codecs by what ffprobe saw: container, picture (profile, pixel format) and the first audio stream', () => {
    const streams = [
      { index: 0, codec_type: 'data', codec_name: 'bin_data' },
      { ...videoStream, index: 1, codec_name: 'h264', profile: 'High', pix_fmt: 'yuv420p' },
      { index: 2, codec_type: 'audio', codec_name: 'aac' },
    ];
    expect(describeMedia(json({ streams, format: { duration: '1', format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } })).codecs).toEqual({
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      video: { index: 1, codec: 'h264', profile: 'High', pixelFormat: 'yuv420p', firstFrameHidden: false, openGop: false },
      audio: { index: 2, codec: 'aac' },
    });
  });

  it('calls the first frame hidden when the edit list discards its packet, and GOPs open when pictures after a key frame show before it', () => {
    // Decoding order; pts in frames. A cut: the edit list discards the frames before it.
    expect(gopFacts('-25,KD\n-24,_D\n-23,_D\n0,__\n1,__')).toEqual({ firstFrameHidden: true, openGop: false });
    // B-frames in closed GOPs: after each key frame, only pictures shown after it.
    const closed = '0,K_\n4,__\n2,__\n1,__\n3,__\n24,K_\n28,__\n26,__\n25,__\n27,__';
    expect(gopFacts(closed)).toEqual({ firstFrameHidden: false, openGop: false });
    // Open GOPs: the key frame at 24 is followed by 22, 21, 23, which refer to the GOP before.
    const open = '0,K_\n4,__\n2,__\n1,__\n3,__\n24,K_\n22,__\n21,__\n23,__\n28,__';
    expect(gopFacts(open)).toEqual({ firstFrameHidden: false, openGop: true });
    expect(gopFacts('')).toEqual({ firstFrameHidden: false, openGop: false });
    expect(gopFacts('N/A,K_\n0,K_\nN/A,__')).toEqual({ firstFrameHidden: false, openGop: false });
  });

  it('reads the GOP facts into the codecs', () => {
    const described = json({ streams: [videoStream], format: { duration: '1', format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } });
    expect(describeMedia(described, undefined, { videoPackets: '0,KD\n1,__' }).codecs.video).toMatchObject({
      firstFrameHidden: true,
      openGop: false,
    });
  });

  it('works out the bitrate from size and duration when ffprobe gives none', () => {
    expect(describeMedia(json({ streams: [videoStream], format: { duration: '8', size: '1000000' } })).bitrateKbps).toBe(1000);
  });

  it('refuses audio only, cover art, a still picture and unreadable output', () => {
    const cases = [
      json({ streams: [{ codec_type: 'audio' }], format: { duration: '3' } }),
      json({ streams: [{ ...videoStream, disposition: { attached_pic: 1 } }, { codec_type: 'audio' }], format: { duration: '3' } }),
      json({ streams: [videoStream], format: {} }),
      'not json',
    ];
    for (const text of cases) expect(() => describeMedia(text)).toThrow(NotAVideoError);
  });
});

describe('endOfPackets', () => {
  it("ends a recording at its last packet plus that packet's duration, or the mean gap when WebM gives none", () => {
    expect(endOfPackets('0,60\n2940,60\n', '1/1000')).toBeCloseTo(3);
    // MediaRecorder's video blocks: timestamps only, 14 packets a second here.
    const irregular = ['39,N/A', '110,N/A', '180,N/A', '253,N/A'].join('\n');
    expect(endOfPackets(irregular, '1/1000')).toBeCloseTo(0.324, 3);
  });

  it('ends a file at its latest stream: the sound may run on past the last video frame', () => {
    const streams = [
      { index: 0, time_base: '1/1000' },
      { index: 1, time_base: '1/48000' },
    ];
    // Video frames every 100 ms up to 3.5 s (ending at 3.6 s), sound up to 4 s.
    const video = Array.from({ length: 36 }, (_, frame) => `0,${frame * 100},N/A`);
    const csv = [...video, '1,0,960', '1,191040,960'].join('\n');
    expect(endOfStreams(csv, streams)).toBeCloseTo(4, 3);
    expect(endOfStreams('', streams)).toBe(0);
  });

  it('finds nothing in no packets or an unreadable time base', () => {
    expect(endOfPackets('', '1/1000')).toBe(0);
    expect(endOfPackets('10,N/A', '')).toBe(0);
  });

  it('lets a measured duration stand in for the one the header lacks', () => {
    const headerless = JSON.stringify({ streams: [videoStream], format: {} });
    expect(describeMedia(headerless, undefined, { duration: 9.87654 }).duration).toBe(9.877);
  });
});
