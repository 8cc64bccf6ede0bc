import { describe, expect, it } from 'vitest';
import { formatCreateDate } from './createDate';

const AT = Date.UTC(2023, 10, 14, 22, 13, 20, 123); // 2023-11-14T22:13:20.123Z

describe('formatCreateDate', () => {
  it('writes Beijing time (UTC+8) for Asia/Shanghai, the default, without an offset', () => {
    expect(formatCreateDate(AT, 'Asia/Shanghai')).toBe('2023-11-15T06:13:20.123');
  });

  it('follows another TIME_ZONE, including its daylight saving time', () => {
    expect(formatCreateDate(AT, 'Europe/Berlin')).toBe('2023-11-14T23:13:20.123');
    expect(formatCreateDate(AT, 'UTC')).toBe('2023-11-14T22:13:20.123');
    expect(formatCreateDate(Date.UTC(2023, 6, 1, 12, 0, 0, 0), 'America/New_York')).toBe('2023-07-01T08:00:00.000');
    expect(formatCreateDate(Date.UTC(2023, 0, 1, 12, 0, 0, 0), 'America/New_York')).toBe('2023-01-01T07:00:00.000');
  });

  it('writes midnight as 00, not 24', () => {
    expect(formatCreateDate(Date.UTC(2023, 10, 14, 16, 0, 0, 5), 'Asia/Shanghai')).toBe('2023-11-15T00:00:00.005');
  });

  it('is ISO 8601 local time that reads back to the same instant in that zone', () => {
    const text = formatCreateDate(AT, 'UTC');
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(Date.parse(text + 'Z')).toBe(AT);
  });
});
