import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadOptions } from 'tus-js-client';
import { DetailedError } from 'tus-js-client';
import { TICKET_HEADER } from '../../shared/uploadPage';
import { isRetryable, tusUpload, type UploadListeners, type UploadRequest } from './uploadCore';

afterEach(() => vi.useRealTimers());

const file = new File([new Uint8Array(100)], 'clip.mp4', { type: 'video/mp4' });
const REQUEST: UploadRequest = { file, fingerprint: 'fp', videoId: 'v-1', endpoint: 'http://s.test/tus', ticket: 't-1', resume: null };
const TUNING = { retryDelays: [0, 10], stallMs: 1000, chunkSize: 64 };

function listeners() {
  return {
    onProgress: vi.fn<UploadListeners['onProgress']>(),
    onSuccess: vi.fn<UploadListeners['onSuccess']>(),
    onRefused: vi.fn<UploadListeners['onRefused']>(),
    onNetworkError: vi.fn<UploadListeners['onNetworkError']>(),
  };
}

function network() {
  const state = { online: true, offline: undefined as (() => void) | undefined };
  return {
    state,
    online: () => state.online,
    onOffline(listener: () => void) {
      state.offline = listener;
      return () => (state.offline = undefined);
    },
  };
}

/** A tus Upload double: records its options, counts start/abort, and lets the test fire its callbacks. */
function fakeTus() {
  const state = { options: undefined as unknown as UploadOptions, starts: 0, aborts: 0 };
  const create = (_file: File, options: UploadOptions) => {
    state.options = options;
    return {
      start: () => void (state.starts += 1),
      abort: async () => void (state.aborts += 1),
    };
  };
  return { state, create };
}

function httpError(status: number, body: string): DetailedError {
  const res = { getStatus: () => status, getBody: () => body, getHeader: () => undefined, getUnderlyingObject: () => null };
  const req = { getMethod: () => 'PATCH', getURL: () => 'http://s.test/tus/1', getHeader: () => undefined } as never;
  // The typings list only (message, causingErr); the runtime takes the request and response too.
  const Detailed = DetailedError as unknown as new (message: string, cause: Error | null, req: unknown, res: unknown) => DetailedError;
  return new Detailed('tus: unexpected response', null, req, res);
}

describe('tusUpload', () => {
  it('creates a new upload with the ticket on every request, the metadata, and no browser-stored resume', () => {
    const tus = fakeTus();
    tusUpload(REQUEST, listeners(), { tuning: TUNING, createUpload: tus.create, network: network() });
    expect(tus.state.starts).toBe(1);
    expect(tus.state.options).toMatchObject({
      endpoint: 'http://s.test/tus',
      uploadUrl: null,
      headers: { [TICKET_HEADER]: 't-1' },
      metadata: { filename: 'clip.mp4', filetype: 'video/mp4', fingerprint: 'fp' },
      storeFingerprintForResuming: false,
      retryDelays: [0, 10],
      chunkSize: 64,
    });
  });

  it('resumes the upload the service named, and tells uploads of other videos apart', async () => {
    const tus = fakeTus();
    tusUpload({ ...REQUEST, resume: { uploadUrl: 'http://s.test/tus/abc', offset: 40 } }, listeners(), { tuning: TUNING, createUpload: tus.create, network: network() });
    expect(tus.state.options.uploadUrl).toBe('http://s.test/tus/abc');
    expect(await tus.state.options.fingerprint!(file, tus.state.options)).toBe('v-1:fp');
  });

  it('reports a 4xx of the service as a refusal with its ResultCode', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onError!(httpError(409, JSON.stringify({ AuthMsg: { ResultCode: '107', ResultMessage: 'Video Status Error' } })));
    expect(on.onRefused).toHaveBeenCalledWith('107');
    expect(on.onNetworkError).not.toHaveBeenCalled();
  });

  it('reports other failures as network errors with the bytes the service confirmed', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onChunkComplete!(64, 64, 100);
    tus.state.options.onError!(new DetailedError('tus: failed to upload chunk', new Error('network')));
    expect(on.onNetworkError).toHaveBeenCalledWith(64);
  });

  it('restarts a stalled request, and gives up after as many stalls as retries', () => {
    vi.useFakeTimers();
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    vi.advanceTimersByTime(1300);
    expect(tus.state).toMatchObject({ aborts: 1, starts: 2 });
    // Progress keeps it alive.
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(500);
      tus.state.options.onProgress!(10 + i, 100);
    }
    expect(tus.state.aborts).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(on.onNetworkError).toHaveBeenCalledOnce();
    expect(tus.state.starts).toBe(3);
  });

  it('gives up at once when the browser goes offline, and listens no more once stopped', () => {
    const tus = fakeTus();
    const on = listeners();
    const net = network();
    const control = tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: net });
    tus.state.options.onChunkComplete!(64, 64, 100);
    net.state.offline!();
    expect(tus.state.aborts).toBe(1);
    expect(on.onNetworkError).toHaveBeenCalledExactlyOnceWith(64);
    expect(net.state.offline).toBeUndefined();
    control.resume();
    expect(net.state.offline).toBeDefined();
    control.pause();
    expect(net.state.offline).toBeUndefined();
  });

  it('pauses by aborting and resumes by starting again', () => {
    const tus = fakeTus();
    const control = tusUpload(REQUEST, listeners(), { tuning: TUNING, createUpload: tus.create, network: network() });
    control.pause();
    control.resume();
    expect(tus.state).toMatchObject({ aborts: 1, starts: 2 });
  });
});

describe('isRetryable', () => {
  it.each([
    ['no response while online', new DetailedError('x', new Error('net')), true, true],
    ['no response while offline', new DetailedError('x', new Error('net')), false, false],
    ['a 500', httpError(500, ''), true, true],
    ['a 423 (locked)', httpError(423, ''), true, true],
    ["tus's own offset conflict (409 without AuthMsg)", httpError(409, 'Upload-Offset conflict'), true, true],
    ['a 409 refusal of the service', httpError(409, '{"AuthMsg":{"ResultCode":"107"}}'), true, false],
    ['a 401', httpError(401, '{"AuthMsg":{"ResultCode":"104"}}'), true, false],
    ['a 413', httpError(413, ''), true, false],
  ])('%s → %s', (_case, error, online, expected) => {
    expect(isRetryable(error, online)).toBe(expected);
  });
});
