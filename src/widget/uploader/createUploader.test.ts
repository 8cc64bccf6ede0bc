import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostMessage, PageMessage, WithoutEnvelope } from '../../shared/messages';
import { stringTable } from '../../shared/i18n/tables';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { createUploader } from './createUploader';
import type { UploadListeners } from './uploadCore';

afterEach(() => vi.useRealTimers());

const BOOT: UploadPageBoot = {
  videoId: 'video-1',
  channel: 'chan',
  hostOrigin: 'http://host.test',
  form: 'overlay',
  lang: 'en',
  strings: {},
  tusEndpoint: 'http://service.test/UploadWidget/tus',
  ticket: 'ticket-1',
  maxFileSize: 2 * 1024 ** 3,
  limits: {},
  sources: ['file'],
  uploadWhileRecording: false,
  uploadChunkBytes: 0,
  resume: null,
  look: { theme: 'auto' },
};

/** An uploader in bare Node: the host, the transport and the browser's connection are doubles. */
function uploaderWith(retry = { delays: [50], everyMs: 1000 }) {
  const posted: WithoutEnvelope<PageMessage>[] = [];
  let fromHost: ((type: HostMessage['type']) => void) | undefined;
  const transports: { listeners: UploadListeners; pause: ReturnType<typeof vi.fn>; resume: ReturnType<typeof vi.fn> }[] = [];
  const network = { isOnline: true, back: undefined as (() => void) | undefined };
  const uploader = createUploader({
    boot: BOOT,
    strings: stringTable('en', {}),
    host: {
      post: (message) => posted.push(message),
      onHost(listener) {
        fromHost = listener;
        return () => (fromHost = undefined);
      },
    },
    startUpload: (_request, listeners) => {
      const transport = { listeners, pause: vi.fn(), resume: vi.fn() };
      transports.push(transport);
      return { pause: transport.pause, resume: transport.resume };
    },
    fingerprint: async (file) => `print-of-${file.name}`,
    preview: async () => ({ kind: 'none' }),
    limits: undefined,
    now: () => 0,
    retry,
    discard: async () => true,
    processingStatus: async () => undefined,
    statusPollMs: 5000,
    handles: undefined,
    network: {
      online: () => network.isOnline,
      onOnline(listener) {
        network.back = listener;
        return () => (network.back = undefined);
      },
    },
  });
  /** A file chosen and checked: its upload started. */
  const upload = () => {
    uploader.send({ type: 'choose', file: new File([new Uint8Array(1000)], 'clip.mp4', { type: 'video/mp4' }) });
    uploader.send({ type: 'checked', attempt: uploader.getSnapshot().model.attempt, print: 'print-of-clip.mp4' });
    return transports.at(-1)!;
  };
  return { uploader, posted, transports, network, upload, host: (type: HostMessage['type']) => fromHost?.(type) };
}

describe('createUploader', () => {
  it("owns the retry policy's timer: tries again quietly after the delay, then says so and tries every while", () => {
    vi.useFakeTimers();
    const { uploader, posted, upload } = uploaderWith();
    const stop = uploader.start();
    const transport = upload();
    transport.listeners.onNetworkError(300);
    vi.advanceTimersByTime(49);
    expect(transport.resume).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(transport.resume).toHaveBeenCalledOnce();
    expect(posted.filter((message) => message.type === 'error')).toEqual([]);
    transport.listeners.onNetworkError(300);
    expect(uploader.getSnapshot().model.state.kind).toBe('retrying');
    expect(posted.filter((message) => message.type === 'error')).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(transport.resume).toHaveBeenCalledTimes(2);
    stop();
  });

  it('the browser back online ends the wait at once, and its timer with it', () => {
    vi.useFakeTimers();
    const { uploader, network, upload } = uploaderWith({ delays: [], everyMs: 1000 });
    uploader.start();
    const transport = upload();
    network.isOnline = false;
    transport.listeners.onNetworkError(300);
    expect(uploader.getSnapshot().model.state.kind).toBe('offline');
    network.isOnline = true;
    network.back!();
    expect(transport.resume).toHaveBeenCalledOnce();
    expect(network.back).toBeUndefined();
    vi.advanceTimersByTime(5000);
    expect(transport.resume).toHaveBeenCalledOnce();
  });

  it('Pause drops a retry still waiting, and the end of the page drops every timer', () => {
    vi.useFakeTimers();
    const { uploader, upload } = uploaderWith();
    const stop = uploader.start();
    const paused = upload();
    paused.listeners.onNetworkError(300);
    uploader.send({ type: 'pause' });
    vi.advanceTimersByTime(5000);
    expect(paused.resume).not.toHaveBeenCalled();
    uploader.send({ type: 'resume' });
    paused.listeners.onNetworkError(300);
    stop();
    vi.advanceTimersByTime(5000);
    expect(paused.resume).toHaveBeenCalledOnce();
  });

  it('tells its subscribers of each change, with one snapshot between changes; the host is heard once started', () => {
    const { uploader, posted, upload, host } = uploaderWith();
    const seen: unknown[] = [];
    const unsubscribe = uploader.subscribe(() => seen.push(uploader.getSnapshot()));
    const first = uploader.getSnapshot();
    expect(uploader.getSnapshot()).toBe(first);
    host('askClose');
    expect(posted).toEqual([]);
    const stop = uploader.start();
    expect(posted).toEqual([{ type: 'ready', valid: true }]);
    const transport = upload();
    expect(seen.length).toBeGreaterThan(0);
    expect(uploader.getSnapshot().model.state.kind).toBe('uploading');
    host('close');
    expect(transport.pause).toHaveBeenCalledOnce();
    unsubscribe();
    const count = seen.length;
    uploader.send({ type: 'pause' });
    expect(seen).toHaveLength(count);
    stop();
  });
});
