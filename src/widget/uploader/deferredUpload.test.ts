import { describe, expect, it, vi } from 'vitest';
import { deferredUpload } from './deferredUpload';
import type { StartUpload, UploadListeners, UploadRequest } from './uploadCore';

const REQUEST = { resume: { uploadUrl: 'http://s.test/tus/abc', offset: 40 } } as UploadRequest;

function listeners(): UploadListeners {
  return {
    onStored: vi.fn(),
    onProgress: vi.fn(),
    onSuccess: vi.fn(),
    onRefused: vi.fn(),
    onNetworkError: vi.fn(),
    onUnreachable: vi.fn(),
  };
}

function transport() {
  const control = { pause: vi.fn(), resume: vi.fn() };
  const start = vi.fn<StartUpload>(() => control);
  return { control, start };
}

const settle = () => new Promise((done) => setTimeout(done));

describe('deferredUpload', () => {
  it('starts the upload once the transport has loaded, and hands pause and resume to it', async () => {
    const { control, start } = transport();
    const upload = deferredUpload(async () => start)(REQUEST, listeners());
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
    upload.pause();
    upload.resume();
    expect(control.pause).toHaveBeenCalledTimes(1);
    expect(control.resume).toHaveBeenCalledTimes(1);
  });

  it('sends nothing when paused before the transport arrived, and starts on resume', async () => {
    const { start } = transport();
    const upload = deferredUpload(async () => start)(REQUEST, listeners());
    upload.pause();
    await settle();
    expect(start).not.toHaveBeenCalled();
    upload.resume();
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('reports a failed load as a network error with what the service holds, and loads again on resume', async () => {
    const { start } = transport();
    const load = vi.fn<() => Promise<StartUpload>>().mockRejectedValueOnce(new Error('chunk failed')).mockResolvedValue(start);
    const on = listeners();
    const upload = deferredUpload(load)(REQUEST, on);
    await settle();
    expect(on.onNetworkError).toHaveBeenCalledWith(40);
    upload.resume();
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
  });
});
