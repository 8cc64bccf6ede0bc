import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('readConfig', () => {
  // toMatchObject: other parts add their own variables to the same config.
  it('has the documented defaults', () => {
    expect(readConfig({})).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: resolve('./data'),
      publicUrl: 'http://localhost:8080',
      appsFile: undefined,
      timeZone: 'Asia/Shanghai',
      sourceUrlAllowPrivate: false,
      maxUploadBytesFlash: 2 * 1024 ** 3,
      maxUploadBytesSilverlight: 6 * 1024 ** 3,
      uploadChunkBytes: 0,
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/videos',
      PUBLIC_URL: 'https://video.example/base/',
      APPS_FILE: '/etc/videos/apps.json',
      TIME_ZONE: 'Europe/Berlin',
      SOURCE_URL_ALLOW_PRIVATE: '1',
      MAX_UPLOAD_BYTES_FLASH: '1000',
      MAX_UPLOAD_BYTES_SILVERLIGHT: '2000',
      UPLOAD_CHUNK_BYTES: '8388608',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/videos',
      publicUrl: 'https://video.example/base',
      appsFile: '/etc/videos/apps.json',
      timeZone: 'Europe/Berlin',
      sourceUrlAllowPrivate: true,
      maxUploadBytesFlash: 1000,
      maxUploadBytesSilverlight: 2000,
      uploadChunkBytes: 8388608,
    });
  });

  it('builds the default PUBLIC_URL from PORT', () => {
    expect(readConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number, got "eighty"'],
    [{ PORT: '-1' }, 'PORT must be a whole number'],
    [{ PORT: '65536' }, 'PORT must be between 0 and 65535, got 65536'],
    [{ PUBLIC_URL: 'localhost:8080' }, 'PUBLIC_URL must be http or https'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL "not a url" is not a URL'],
    [{ TIME_ZONE: 'Mars/Olympus' }, 'TIME_ZONE "Mars/Olympus" is not an IANA time zone'],
    [{ SOURCE_URL_ALLOW_PRIVATE: 'true' }, 'SOURCE_URL_ALLOW_PRIVATE must be 1 or 0, got "true"'],
    [{ MAX_UPLOAD_BYTES_FLASH: '0' }, 'MAX_UPLOAD_BYTES_FLASH must be between 1 and'],
    [{ MAX_UPLOAD_BYTES_SILVERLIGHT: '6GB' }, 'MAX_UPLOAD_BYTES_SILVERLIGHT must be a whole number'],
    [{ UPLOAD_CHUNK_BYTES: '8MB' }, 'UPLOAD_CHUNK_BYTES must be a whole number'],
    [{ JOB_LEASE_MS: '500' }, 'JOB_LEASE_MS must be between 1000 and 3600000, got 500'],
    [{ JOB_LEASE_MS: '1m' }, 'JOB_LEASE_MS must be a whole number'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrowError(ConfigError);
    expect(() => readConfig(env)).toThrowError(message);
  });
});

describe('the S3 settings', () => {
  const s3 = {
    S3_BUCKET: 'videos',
    S3_ENDPOINT: 'http://127.0.0.1:9000/',
    S3_REGION: 'auto',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-secret',
    S3_FORCE_PATH_STYLE: '1',
  };

  it('are absent by default: files stay in DATA_DIR', () => {
    expect(readConfig({}).s3).toBeUndefined();
  });

  it('reads all six names, and keeps the secret out of logs and JSON', () => {
    const config = readConfig(s3);
    expect(config.s3).toEqual({
      bucket: 'videos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      accessKeyId: 'AKIDEXAMPLE',
      forcePathStyle: true,
    });
    expect(config.s3!.secretAccessKey).toBe('wJalrXUtnFEMI-secret');
    expect(JSON.stringify(config)).not.toContain('wJalrXUtnFEMI');
    expect(readConfig({ ...s3, S3_ENDPOINT: '', S3_REGION: '', S3_FORCE_PATH_STYLE: '' }).s3).toMatchObject({
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it.each([
    [{ ...s3, S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' }, 'S3_BUCKET is set but S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not'],
    [{ ...s3, S3_SECRET_ACCESS_KEY: '' }, 'S3_BUCKET is set but S3_SECRET_ACCESS_KEY is not'],
    [{ ...s3, S3_BUCKET: '' }, 'S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE set without S3_BUCKET'],
    [{ ...s3, S3_BUCKET: 'My_Videos' }, 'S3_BUCKET "My_Videos" is not a bucket name'],
    [{ ...s3, S3_ENDPOINT: 'ftp://127.0.0.1' }, 'S3_ENDPOINT must be http or https'],
    [{ ...s3, S3_ENDPOINT: 'http://key:pass@127.0.0.1' }, 'S3_ENDPOINT must not hold credentials'],
    [{ ...s3, S3_REGION: 'US East' }, 'S3_REGION "US East" is not a region name'],
    [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be 1 or 0, got "yes"'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrowError(ConfigError);
    expect(() => readConfig(env)).toThrowError(message);
    expect(() => readConfig(env)).not.toThrowError(/wJalrXUtnFEMI/);
  });
});

describe('the processing pools and the download rate floor', () => {
  it('default to two downloads and two transcodes, no per-app number (half of each pool), 16 KiB/s over 30 s, x264 superfast', () => {
    expect(readConfig({})).toMatchObject({
      downloadConcurrency: 2,
      processingConcurrency: 2,
      appMaxRunningJobs: undefined,
      downloadMinBytesPerS: 16_384,
      downloadRateWindowMs: 30_000,
      x264Preset: 'superfast',
    });
  });

  it('reads DOWNLOAD_CONCURRENCY, APP_MAX_RUNNING_JOBS, DOWNLOAD_MIN_BYTES_PER_S (0 turns it off), DOWNLOAD_RATE_WINDOW_MS and X264_PRESET', () => {
    const env = {
      DOWNLOAD_CONCURRENCY: '4',
      APP_MAX_RUNNING_JOBS: '3',
      DOWNLOAD_MIN_BYTES_PER_S: '0',
      DOWNLOAD_RATE_WINDOW_MS: '2000',
      X264_PRESET: 'veryfast',
    };
    expect(readConfig(env)).toMatchObject({
      x264Preset: 'veryfast',
      downloadConcurrency: 4,
      appMaxRunningJobs: 3,
      downloadMinBytesPerS: 0,
      downloadRateWindowMs: 2000,
    });
  });

  it.each([
    [{ DOWNLOAD_CONCURRENCY: '0' }, 'DOWNLOAD_CONCURRENCY must be between 1 and 64, got 0'],
    [{ APP_MAX_RUNNING_JOBS: '0' }, 'APP_MAX_RUNNING_JOBS must be between 1 and 64, got 0'],
    [{ APP_MAX_RUNNING_JOBS: 'half' }, 'APP_MAX_RUNNING_JOBS must be a whole number, got "half"'],
    [{ DOWNLOAD_MIN_BYTES_PER_S: '16KiB' }, 'DOWNLOAD_MIN_BYTES_PER_S must be a whole number'],
    [{ DOWNLOAD_RATE_WINDOW_MS: '50' }, 'DOWNLOAD_RATE_WINDOW_MS must be between 100 and 3600000, got 50'],
    [{ X264_PRESET: 'placebo' }, 'X264_PRESET must be'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrowError(ConfigError);
    expect(() => readConfig(env)).toThrowError(message);
  });
});

describe('operator settings (OPS_TOKEN, OPS_PORT, OPS_HOST)', () => {
  it('are off by default: no token, no second listener', () => {
    expect(readConfig({}).ops).toEqual({ port: undefined, host: '127.0.0.1' });
    expect(readConfig({}).ops.token).toBeUndefined();
  });

  it('keeps the token out of logs and JSON', () => {
    const config = readConfig({ OPS_TOKEN: 'ops-token-0123456789abcdef', OPS_PORT: '9100', OPS_HOST: '::1' });
    expect(config.ops).toEqual({ port: 9100, host: '::1' });
    expect(config.ops.token).toBe('ops-token-0123456789abcdef');
    expect(JSON.stringify(config)).not.toContain('ops-token');
  });

  it.each([
    [{ OPS_TOKEN: 'short-token' }, 'OPS_TOKEN must be at least 16 printable characters without spaces'],
    [{ OPS_TOKEN: 'a token with spaces in it' }, 'OPS_TOKEN must be at least 16 printable characters without spaces'],
    [{ OPS_PORT: 'metrics' }, 'OPS_PORT must be a whole number, got "metrics"'],
    [{ OPS_PORT: '70000' }, 'OPS_PORT must be between 0 and 65535, got 70000'],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrowError(new ConfigError(message));
  });
});

describe('defaults that come from another variable', () => {
  it('DOWNLOAD_MAX_BYTES follows MAX_UPLOAD_BYTES_SILVERLIGHT until set', () => {
    expect(readConfig({}).downloadMaxBytes).toBe(6 * 1024 ** 3);
    expect(readConfig({ MAX_UPLOAD_BYTES_SILVERLIGHT: '5000' }).downloadMaxBytes).toBe(5000);
    expect(readConfig({ MAX_UPLOAD_BYTES_SILVERLIGHT: '5000', DOWNLOAD_MAX_BYTES: '700' }).downloadMaxBytes).toBe(700);
    expect(() => readConfig({ DOWNLOAD_MAX_BYTES: '0' })).toThrowError(
      new ConfigError(`DOWNLOAD_MAX_BYTES must be between 1 and ${Number.MAX_SAFE_INTEGER}, got 0`),
    );
  });

  it('an empty variable counts as unset, as compose files write it', () => {
    expect(readConfig({ PORT: '', PUBLIC_URL: '', LOG_LEVEL: '', OPS_PORT: '', APP_MAX_RUNNING_JOBS: '', DIST_DIR: '' })).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
      ops: { port: undefined },
      appMaxRunningJobs: undefined,
      distDir: readConfig({}).distDir,
    });
  });
});
