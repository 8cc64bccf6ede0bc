import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatPercent } from './format';
import { stringTable } from '../../shared/i18n/tables';
import { textsFor } from './i18n';
import { SpeedMeter } from './speedMeter';

describe('SpeedMeter', () => {
  it('gives no estimate until it has seen enough', () => {
    const meter = new SpeedMeter();
    meter.add(0, 0);
    meter.add(100, 1000);
    expect(meter.estimate(10_000)).toBeNull();
  });

  it('follows the last seconds, not the whole history', () => {
    const meter = new SpeedMeter();
    meter.add(0, 0);
    meter.add(10_000, 1_000); // slow start
    meter.add(12_000, 5_000);
    meter.add(16_000, 13_000); // 2000 B/s lately
    expect(meter.estimate(33_000)).toEqual({ bytesPerSecond: 2000, secondsLeft: 10 });
  });

  it('forgets a pause', () => {
    const meter = new SpeedMeter();
    meter.add(0, 0);
    meter.add(1000, 1000);
    meter.reset();
    meter.add(60_000, 1000);
    expect(meter.estimate(2000)).toBeNull();
  });
});

describe('formatting', () => {
  const en = textsFor(stringTable('en'));
  const zh = textsFor(stringTable('zh-CN'));
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KiB'],
    [2 * 1024 ** 3, '2.0 GiB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes, en)).toBe(text);
  });

  it('writes durations with two units at most, in the page language', () => {
    expect(formatDuration(12.2, en)).toBe('13 s');
    expect(formatDuration(200, en)).toBe('3 min 20 s');
    expect(formatDuration(3900, en)).toBe('1 h 5 min');
    expect(formatDuration(200, zh)).toBe('3 分 20 秒');
  });

  it('never rounds a percentage up to 100 before the end', () => {
    expect(formatPercent(999, 1000)).toBe('99%');
    expect(formatPercent(0, 0)).toBe('0%');
  });
});
