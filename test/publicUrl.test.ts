import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';
import { openUploader, registerVideo } from './uploadHelpers';

let service: TestService | undefined;
afterEach(async () => {
  await service?.stop(true);
  service = undefined;
});

describe('PUBLIC_URL with PORT=0', () => {
  it('names the port the service got, from the first request on, and is never changed afterwards', async () => {
    // What `PORT=0` without PUBLIC_URL gives: http://localhost:0.
    service = await startTestService({ env: { PUBLIC_URL: 'http://localhost:0' } });
    const port = new URL(service.address).port;
    expect(service.context.config.publicUrl).toBe(`http://localhost:${port}`);
    const boot = await openUploader(service, await registerVideo(service));
    expect(boot.tusEndpoint).toBe(`http://localhost:${port}/UploadWidget/files/`);
    expect(Object.isFrozen(service.context.config)).toBe(true);
  });

  it('is kept as given when it names a real port (a proxy in front)', async () => {
    service = await startTestService({ env: { PUBLIC_URL: 'https://video.example.com' } });
    expect(service.context.config.publicUrl).toBe('https://video.example.com');
  });
});
