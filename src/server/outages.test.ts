import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from './errors';
import { createLogger } from './log';
import { Outages, noSpaceReason, partFailureOf } from './outages';
import { DatabaseConnectError } from './storage/unavailable';

afterEach(() => {
  vi.useRealTimers();
});

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('partFailureOf', () => {
  it.each([
    ['a connection the pool could not open', new DatabaseConnectError(errno('ECONNRESET')), '114'],
    ['PostgreSQL shutting down (57P01)', errno('57P01'), '114'],
    ['a full disk', errno('ENOSPC'), '113'],
    ['a used-up quota', errno('EDQUOT'), '113'],
    ["SQLite's full database", errno('SQLITE_FULL', 'database or disk is full'), '113'],
    ['the 115 of a lost bucket', new ServiceError('STORAGE_UNAVAILABLE'), '115'],
    ['a refused connection to the S3 endpoint', errno('ECONNREFUSED'), '115'],
  ])('answers %s with its code', (_what, error, code) => {
    expect(partFailureOf(error)?.code).toBe(code);
  });

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['a constraint', errno('SQLITE_CONSTRAINT_TRIGGER', 'disk full')],
    ['a refusal of the request', new ServiceError('BAD_TOKEN')],
    [
      "an app's storageBytes quota (113 too, but no disk is full)",
      new ServiceError('NO_SPACE', "the app's storageBytes quota (1000) is used up"),
    ],
  ])('leaves %s alone', (_what, error) => {
    expect(partFailureOf(error)).toBeUndefined();
  });
});

describe('noSpaceReason', () => {
  it('says so in words for a download or ffmpeg cut short by a full disk, and for nothing else', () => {
    expect(noSpaceReason(new Error('storage: ENOSPC'))).toBe('no space left in DATA_DIR (storage: ENOSPC)');
    expect(noSpaceReason(new Error('ffmpeg failed: av_interleaved_write_frame(): No space left on device'))).toMatch(
      /^no space left in DATA_DIR/,
    );
    expect(noSpaceReason(new Error('http-status: HTTP 404'))).toBeUndefined();
  });
});

describe('Outages', () => {
  it('logs one line when a part fails, however many requests meet it, and one when its probe finds it back', async () => {
    vi.useFakeTimers();
    const lines: { level: string; message: string; part?: string }[] = [];
    let back = false;
    const outages = new Outages({
      log: createLogger((line) => lines.push(JSON.parse(line))),
      probes: { DATABASE_UNAVAILABLE: async () => back, STORAGE_UNAVAILABLE: async () => true, NO_SPACE: async () => true },
    });
    try {
      for (let i = 0; i < 50; i++) expect(outages.answer(errno('57P01'))?.code).toBe('114');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(lines.map((line) => [line.level, line.part, line.message])).toEqual([
        ['error', 'database', 'database outage: the database cannot be reached; requests answer 114 until it is back'],
      ]);

      back = true;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(lines.map((line) => line.message)).toEqual([
        'database outage: the database cannot be reached; requests answer 114 until it is back',
        'database back: the database cannot be reached no more',
      ]);

      // A second outage is a new line.
      back = false;
      outages.answer(errno('57P01'));
      expect(lines).toHaveLength(3);
      expect(outages.answer(new TypeError('a bug'))).toBeUndefined();
      expect(lines).toHaveLength(3);
    } finally {
      outages.close();
    }
  });
});
