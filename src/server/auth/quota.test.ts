import { describe, expect, it } from 'vitest';
import { AppsFileError, parseApps } from './apps';
import { parseQuota } from './quota';

const fail = (message: string, field?: string) => new Error(`q${message}${field === undefined ? '' : ` [${field}]`}`);

describe('parseQuota', () => {
  it('reads every field, fractions for rates and null for "no limit"', () => {
    const quota = { requestsPerSecond: 0.5, requestsBurst: 3, uploadsPerMinute: 10, uploadsInFlight: 2, storageBytes: null };
    expect(parseQuota(quota, fail)).toEqual(quota);
    expect(parseQuota({}, fail)).toEqual({});
  });

  it.each([
    ['not an object', 5, 'q must be an object'],
    ['an array', [1], 'q must be an object'],
    ['a negative rate', { requestsPerSecond: -1 }, 'q.requestsPerSecond must be a number above 0'],
    ['a zero rate', { uploadsPerMinute: 0 }, 'q.uploadsPerMinute must be a number above 0'],
    [
      'a rate given as text',
      { requestsPerSecond: '10' },
      'q.requestsPerSecond must be a number above 0, or null for no limit [requestsPerSecond]',
    ],
    ['a burst below one', { requestsBurst: 0.5 }, 'q.requestsBurst must be a number of at least 1'],
    ['a fraction of an upload', { uploadsInFlight: 1.5 }, 'q.uploadsInFlight must be a whole number of at least 1'],
    ['negative bytes', { storageBytes: -5 }, 'q.storageBytes must be a whole number of bytes'],
    ['a boolean', { storageBytes: true }, 'q.storageBytes must be'],
    [
      'a misspelt field',
      { requestPerSecond: 5 },
      'q has an unknown field; known: requestsPerSecond, requestsBurst, uploadsPerMinute, uploadsInFlight, storageBytes, pagesPerVideoPerMinute, uploadsPerVideoPerMinute [requestPerSecond]',
    ],
  ])('refuses %s, naming the field', (_name, value, message) => {
    expect(() => parseQuota(value, fail)).toThrowError(message);
  });
});

describe('an APPS_FILE with a quota', () => {
  it('keeps the quota on the app', () => {
    const [app] = parseApps([{ appId: 'a', appSecret: 'x', quota: { requestsPerSecond: 5, storageBytes: 1000 } }]);
    expect(app!.quota).toEqual({ requestsPerSecond: 5, storageBytes: 1000 });
  });

  it('is refused when a quota is nonsense, naming the entry and the field, quoting nothing of the file', () => {
    const json = [
      { appId: 'a', appSecret: 'x' },
      { appId: 'b', appSecret: 'y', quota: { uploadsInFlight: -2 } },
    ];
    expect(() => parseApps(json)).toThrowError(AppsFileError);
    expect(() => parseApps(json)).toThrowError(
      'APPS_FILE[1].quota.uploadsInFlight must be a whole number of at least 1, or null for no limit',
    );
    expect(() => parseApps([{ appId: 'c', appSecret: 'z', quota: { bytes: 5 } }])).toThrowError(
      'APPS_FILE[0].quota has an unknown field; known: requestsPerSecond',
    );
    expect(() => parseApps([{ appId: 'c', appSecret: 'z', quota: { bytes: 5 } }])).not.toThrowError(/bytes/);
  });
});
