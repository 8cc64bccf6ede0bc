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
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrowError(ConfigError);
    expect(() => readConfig(env)).toThrowError(message);
  });
});
