import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../config';
import { appLimits } from './quotas';

describe('the APP_* quota defaults', () => {
  it('are no limits when unset, but for the per-video budgets', () => {
    expect(readConfig({}).quotaDefaults).toEqual({ pagesPerVideoPerMinute: 20, uploadsPerVideoPerMinute: 6 });
  });

  it('read every variable', () => {
    const config = readConfig({
      APP_REQUESTS_PER_S: '2.5',
      APP_REQUESTS_BURST: '10',
      APP_UPLOADS_PER_MIN: '6',
      APP_UPLOADS_IN_FLIGHT: '3',
      APP_STORAGE_BYTES: '1000000',
      APP_PAGES_PER_VIDEO_PER_MIN: '30',
      APP_UPLOADS_PER_VIDEO_PER_MIN: '0.5',
    });
    expect(config.quotaDefaults).toEqual({
      requestsPerSecond: 2.5,
      requestsBurst: 10,
      uploadsPerMinute: 6,
      uploadsInFlight: 3,
      storageBytes: 1_000_000,
      pagesPerVideoPerMinute: 30,
      uploadsPerVideoPerMinute: 0.5,
    });
  });

  it.each([
    ['APP_REQUESTS_PER_S', '-1', 'APP_REQUESTS_PER_S must be a number above 0 (unset for no limit), got "-1"'],
    ['APP_REQUESTS_PER_S', '0', 'APP_REQUESTS_PER_S must be a number above 0'],
    ['APP_UPLOADS_IN_FLIGHT', '1.5', 'APP_UPLOADS_IN_FLIGHT must be a whole number of at least 1'],
    ['APP_STORAGE_BYTES', '10GB', 'APP_STORAGE_BYTES must be a whole number of bytes'],
  ])('refuse %s=%s in one line naming it', (name, value, message) => {
    expect(() => readConfig({ [name]: value })).toThrowError(ConfigError);
    expect(() => readConfig({ [name]: value })).toThrowError(message);
  });
});

describe("an app's limits", () => {
  const app = { appId: 'a', appSecret: 'x' };

  it('take the defaults, with a burst of twice the rate and uploads per minute as a bucket', () => {
    expect(appLimits(app, { requestsPerSecond: 5, uploadsPerMinute: 30, uploadsInFlight: 2, storageBytes: 100 })).toEqual({
      requests: { perSecond: 5, size: 10 },
      uploads: { perSecond: 0.5, size: 30 },
      uploadsInFlight: 2,
      storageBytes: 100,
      pagesPerVideo: undefined,
      uploadsPerVideo: undefined,
    });
  });

  it('give each video its own page and upload buckets, by the minute', () => {
    expect(appLimits(app, { pagesPerVideoPerMinute: 20, uploadsPerVideoPerMinute: 0.5 })).toMatchObject({
      pagesPerVideo: { perSecond: 20 / 60, size: 20 },
      uploadsPerVideo: { perSecond: 0.5 / 60, size: 1 },
    });
  });

  it("prefer the app's own values, and its null lifts a default", () => {
    const own = { ...app, quota: { requestsPerSecond: 1, requestsBurst: 3, storageBytes: null } };
    expect(appLimits(own, { requestsPerSecond: 5, storageBytes: 100 })).toMatchObject({
      requests: { perSecond: 1, size: 3 },
      storageBytes: undefined,
    });
  });

  it('keep at least one token in a bucket, so a slow rate can still be spent', () => {
    expect(appLimits({ ...app, quota: { requestsPerSecond: 0.2 } }, {}).requests).toEqual({ perSecond: 0.2, size: 1 });
  });

  it('are none without quota or defaults', () => {
    expect(appLimits(app, {})).toEqual({
      requests: undefined,
      uploads: undefined,
      uploadsInFlight: undefined,
      storageBytes: undefined,
      pagesPerVideo: undefined,
      uploadsPerVideo: undefined,
    });
  });
});
