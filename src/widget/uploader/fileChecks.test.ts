import { describe, expect, it } from 'vitest';
import { refuseFile } from './fileChecks';
import { fileFingerprint, SAMPLE_BYTES } from './fingerprint';

describe('refuseFile', () => {
  it.each([
    [{ name: 'a.mp4', type: 'video/mp4', size: 0 }, 'empty'],
    [{ name: 'a.txt', type: 'text/plain', size: 5 }, 'notVideo'],
    [{ name: 'a.mp4', type: 'image/png', size: 5 }, 'notVideo'],
    [{ name: 'README', type: '', size: 5 }, 'notVideo'],
    [{ name: 'a.mp4', type: 'video/mp4', size: 11 }, 'tooLarge'],
    [{ name: 'a.mp4', type: 'video/mp4', size: 10 }, null],
    [{ name: 'a.MKV', type: '', size: 5 }, null],
    [{ name: 'a.flv', type: 'application/octet-stream', size: 5 }, null],
    [{ name: 'a.bin', type: 'video/x-unknown', size: 5 }, null],
  ])('%j → %s', (file, refusal) => {
    expect(refuseFile(file, 10)).toBe(refusal);
  });
});

describe('fileFingerprint', () => {
  const bytes = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

  it('is the same for the same file and differs by name, head, tail and size', async () => {
    const size = 3 * SAMPLE_BYTES;
    const base = bytes(size, 1);
    const print = await fileFingerprint(new File([base], 'a.mp4'));
    expect(print).toMatch(/^[0-9a-f]{64}$/);
    expect(await fileFingerprint(new File([base.slice()], 'a.mp4'))).toBe(print);
    expect(await fileFingerprint(new File([base], 'b.mp4'))).not.toBe(print);
    const head = base.slice();
    head[0] = head[0]! ^ 1;
    expect(await fileFingerprint(new File([head], 'a.mp4'))).not.toBe(print);
    const tail = base.slice();
    tail[size - 1] = tail[size - 1]! ^ 1;
    expect(await fileFingerprint(new File([tail], 'a.mp4'))).not.toBe(print);
    expect(await fileFingerprint(new File([base.slice(0, size - 1)], 'a.mp4'))).not.toBe(print);
  });

  it('reads only the two samples, not the whole file', async () => {
    const file = new File([bytes(10 * SAMPLE_BYTES, 2)], 'big.mp4');
    const read: number[] = [];
    const slice = file.slice.bind(file);
    const spied = Object.assign(file, {
      slice: (start?: number, end?: number) => {
        read.push((end ?? file.size) - (start ?? 0));
        return slice(start, end);
      },
    });
    await fileFingerprint(spied);
    expect(read).toEqual([SAMPLE_BYTES, SAMPLE_BYTES]);
  });
});
