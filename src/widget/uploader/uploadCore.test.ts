import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadOptions } from 'tus-js-client';
import { DetailedError } from 'tus-js-client';
import { TICKET_HEADER } from '../../shared/uploadPage';
import { onPageOrigin, tusUpload, wholeFileReader, type UploadListeners, type UploadRequest } from './uploadCore';

afterEach(() => vi.useRealTimers());

const file = new File([new Uint8Array(100)], 'clip.mp4', { type: 'video/mp4' });
const REQUEST: UploadRequest = { file, fingerprint: 'fp', videoId: 'v-1', endpoint: 'http://s.test/tus', ticket: 't-1', resume: null };
const TUNING = { stallMs: 1000, chunkBytes: 64 };

function listeners() {
  return {
    onStored: vi.fn<UploadListeners['onStored']>(),
    onProgress: vi.fn<UploadListeners['onProgress']>(),
    onSuccess: vi.fn<UploadListeners['onSuccess']>(),
    onRefused: vi.fn<UploadListeners['onRefused']>(),
    onNetworkError: vi.fn<UploadListeners['onNetworkError']>(),
    onUnreachable: vi.fn<UploadListeners['onUnreachable']>(),
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
  const state = { options: undefined as unknown as UploadOptions, starts: 0, aborts: 0, url: null as string | null };
  const create = (_file: unknown, options: UploadOptions) => {
    state.options = options;
    return {
      start: () => void (state.starts += 1),
      abort: async () => void (state.aborts += 1),
      get url() {
        return state.url;
      },
    };
  };
  return { state, create };
}

function httpError(status: number, body: string, headers: Record<string, string> = {}): DetailedError {
  const res = {
    getStatus: () => status,
    getBody: () => body,
    getHeader: (name: string) => headers[name.toLowerCase()],
    getUnderlyingObject: () => null,
  };
  const req = { getMethod: () => 'PATCH', getURL: () => 'http://s.test/tus/1', getHeader: () => undefined } as never;
  // The typings list only (message, causingErr); the runtime takes the request and response too.
  const Detailed = DetailedError as unknown as new (message: string, cause: Error | null, req: unknown, res: unknown) => DetailedError;
  return new Detailed('tus: unexpected response', null, req, res);
}

describe('tusUpload', () => {
  it('reports where the service holds the file and how much of it, so a cancelled upload can be continued', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.url = 'http://s.test/tus/abc';
    tus.state.options.onUploadUrlAvailable?.();
    expect(on.onStored).toHaveBeenLastCalledWith('http://s.test/tus/abc', 0);
    tus.state.options.onChunkComplete?.(64, 64, 100);
    expect(on.onStored).toHaveBeenLastCalledWith('http://s.test/tus/abc', 64);
  });

  it("creates a new upload with the ticket on every request, the metadata, no browser-stored resume and no retries of tus-js-client's own", () => {
    const tus = fakeTus();
    tusUpload(REQUEST, listeners(), { tuning: TUNING, createUpload: tus.create, network: network() });
    expect(tus.state.starts).toBe(1);
    expect(tus.state.options).toMatchObject({
      endpoint: 'http://s.test/tus',
      uploadUrl: null,
      headers: { [TICKET_HEADER]: 't-1' },
      metadata: { filename: 'clip.mp4', filetype: 'video/mp4', fingerprint: 'fp' },
      storeFingerprintForResuming: false,
      retryDelays: null,
      chunkSize: 64,
    });
  });

  it('takes the offset each PATCH starts from as confirmed, so an outage reports what the service holds', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.url = 'http://s.test/tus/abc';
    const request = (method: string, offset?: number) =>
      ({
        getMethod: () => method,
        getHeader: (name: string) => (name === 'Upload-Offset' && offset !== undefined ? String(offset) : undefined),
      }) as never;
    void tus.state.options.onBeforeRequest?.(request('HEAD'));
    void tus.state.options.onBeforeRequest?.(request('PATCH', 70));
    expect(on.onStored).toHaveBeenLastCalledWith('http://s.test/tus/abc', 70);
    tus.state.options.onError!(new Error('network'));
    expect(on.onNetworkError).toHaveBeenCalledWith(70);
  });

  it('without a chunk limit sends the rest of the file in one request, read by the whole-file reader', () => {
    const tus = fakeTus();
    tusUpload(REQUEST, listeners(), { tuning: { chunkBytes: 0 }, createUpload: tus.create, network: network() });
    expect(tus.state.options.chunkSize).toBe(Number.POSITIVE_INFINITY);
    expect(tus.state.options.fileReader).toBe(wholeFileReader);
  });

  it('hands the File itself to the request when it covers the whole file, and one slice from an offset', async () => {
    const source = await wholeFileReader.openFile(file, Number.POSITIVE_INFINITY);
    expect(await source.slice(0, 100)).toEqual({ value: file, done: true });
    const rest = await source.slice(40, 100);
    expect(rest.done).toBe(true);
    expect(rest.value).not.toBe(file);
    expect(new Uint8Array(await (rest.value as Blob).arrayBuffer())).toHaveLength(60);
    const chunk = await source.slice(0, 64);
    expect(chunk.done).toBe(false);
    expect((chunk.value as Blob).size).toBe(64);
  });

  it('resumes the upload the service named, and tells uploads of other videos apart', async () => {
    const tus = fakeTus();
    tusUpload({ ...REQUEST, resume: { uploadUrl: 'http://s.test/tus/abc', offset: 40 } }, listeners(), {
      tuning: TUNING,
      createUpload: tus.create,
      network: network(),
    });
    expect(tus.state.options.uploadUrl).toBe('http://s.test/tus/abc');
    expect(await tus.state.options.fingerprint!(file, tus.state.options)).toBe('v-1:fp');
  });

  it('reports a 4xx of the service as a refusal with its ResultCode', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onError!(httpError(409, JSON.stringify({ AuthMsg: { ResultCode: '107', ResultMessage: 'Video Status Error' } })));
    expect(on.onRefused).toHaveBeenCalledWith('107', undefined);
    expect(on.onNetworkError).not.toHaveBeenCalled();
  });

  it('reports a quota refusal (429, 116) as a refusal with its code, not a network error to retry', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onError!(
      httpError(429, JSON.stringify({ AuthMsg: { ResultCode: '116', ResultMessage: 'Too Many Requests' } }), { 'x-request-id': 'req-429' }),
    );
    expect(on.onRefused).toHaveBeenCalledWith('116', 'req-429');
    expect(on.onNetworkError).not.toHaveBeenCalled();
  });

  it.each([
    ['a 423 (locked)', httpError(423, '')],
    ["tus's own offset conflict (409 without AuthMsg)", httpError(409, 'Upload-Offset conflict')],
  ])('reports %s left after the retries as a network error, not a refusal', (_what, error) => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onChunkComplete!(64, 64, 100);
    tus.state.options.onError!(error);
    expect(on.onNetworkError).toHaveBeenCalledWith(64);
    expect(on.onRefused).not.toHaveBeenCalled();
  });

  it('reports other failures as network errors with the bytes the service confirmed', () => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    tus.state.options.onChunkComplete!(64, 64, 100);
    tus.state.options.onError!(new DetailedError('tus: failed to upload chunk', new Error('network')));
    expect(on.onNetworkError).toHaveBeenCalledWith(64);
  });

  it('reports a stalled request as a failure that may pass, and starts again only when told', () => {
    vi.useFakeTimers();
    const tus = fakeTus();
    const on = listeners();
    const control = tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    // Progress keeps it alive.
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(500);
      tus.state.options.onProgress!(10 + i, 100);
    }
    expect(tus.state.aborts).toBe(0);
    vi.advanceTimersByTime(1300);
    expect(tus.state).toMatchObject({ aborts: 1, starts: 1 });
    expect(on.onNetworkError).toHaveBeenCalledOnce();
    // Stopped: no watchdog runs until the machine's policy resumes it.
    vi.advanceTimersByTime(5000);
    expect(on.onNetworkError).toHaveBeenCalledOnce();
    control.resume();
    expect(tus.state.starts).toBe(2);
    vi.advanceTimersByTime(1300);
    expect(on.onNetworkError).toHaveBeenCalledTimes(2);
  });

  it('stops and reports at once when the browser goes offline, and listens no more once stopped', () => {
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

describe('tusUpload: an upload path the page cannot reach', () => {
  /** No reply at all, as when a proxy drops the connection (or CORS blocks the request). */
  const dropped = () => new DetailedError('tus: failed to create upload', new Error('network'));
  /** A reply of the service's tus endpoint. */
  const tusReply = (status: number) => ({
    getStatus: () => status,
    getBody: () => '',
    getHeader: (name: string) => (name === 'Tus-Resumable' ? '1.0.0' : undefined),
    getUnderlyingObject: () => null,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve));

  function start(serviceAnswers: boolean) {
    const tus = fakeTus();
    const on = listeners();
    const asked = vi.fn<(ticket: string) => Promise<boolean>>(async () => serviceAnswers);
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network(), serviceAnswers: asked });
    const fail = (error: Error) => tus.state.options.onError!(error);
    return { tus, on, asked, fail };
  }

  it('after a second failure without a reply of the service, asks its status; answered there, reports the path unreachable at once', async () => {
    const { tus, on, asked, fail } = start(true);
    fail(dropped());
    expect(asked).not.toHaveBeenCalled();
    fail(dropped());
    expect(asked).toHaveBeenCalledExactlyOnceWith('t-1');
    await settle();
    expect(on.onUnreachable).toHaveBeenCalledOnce();
    expect(tus.state.aborts).toBe(1);
    // What tus-js-client still reports is no news.
    const before = on.onNetworkError.mock.calls.length;
    tus.state.options.onError!(dropped());
    expect([on.onNetworkError.mock.calls.length, on.onRefused.mock.calls]).toEqual([before, []]);
  });

  it("takes a proxy's refusal (404 without tus's header or an AuthMsg) for the same, and asks at once", async () => {
    const { on, asked, tus } = start(true);
    tus.state.options.onError!(httpError(404, '<html>Not Found</html>'));
    await settle();
    expect(asked).toHaveBeenCalledOnce();
    expect(on.onUnreachable).toHaveBeenCalledOnce();
    expect(on.onRefused).not.toHaveBeenCalled();
  });

  it('when the status does not answer either, the service is away: failures are reported as before', async () => {
    const { on, fail, tus } = start(false);
    fail(dropped());
    fail(dropped());
    await settle();
    tus.state.options.onError!(dropped());
    expect(on.onNetworkError).toHaveBeenCalledTimes(3);
    tus.state.options.onError!(httpError(404, '<html>Not Found</html>'));
    await settle();
    expect(on.onRefused).toHaveBeenCalledWith(undefined, undefined);
    expect(on.onUnreachable).not.toHaveBeenCalled();
  });

  it('once the service has replied on its path, later failures are ordinary ones', async () => {
    const { on, asked, fail, tus } = start(true);
    void tus.state.options.onAfterResponse!({} as never, tusReply(201) as never);
    fail(dropped());
    fail(dropped());
    tus.state.options.onError!(httpError(404, ''));
    await settle();
    expect(asked).not.toHaveBeenCalled();
    expect(on.onUnreachable).not.toHaveBeenCalled();
    expect(on.onRefused).toHaveBeenCalledOnce();
  });
});

describe('tusUpload: what may pass and what is final', () => {
  it.each([
    ['no response', new DetailedError('x', new Error('net')), 'network'],
    ['a 500', httpError(500, ''), 'network'],
    ['a 423 (locked)', httpError(423, ''), 'network'],
    ["tus's own offset conflict (409 without AuthMsg)", httpError(409, 'Upload-Offset conflict'), 'network'],
    [
      "tus's offset conflict as the service words it (409, 106)",
      httpError(409, '{"AuthMsg":{"ResultCode":"106","ResultMessage":"Invalid Parameter: Upload-Offset conflict"}}'),
      'network',
    ],
    ['a 409 refusal of the service', httpError(409, '{"AuthMsg":{"ResultCode":"107"}}'), 'refused'],
    ['a 401', httpError(401, '{"AuthMsg":{"ResultCode":"104"}}'), 'refused'],
    ['a quota refusal (429, 116)', httpError(429, '{"AuthMsg":{"ResultCode":"116","ResultMessage":"Too Many Requests"}}'), 'refused'],
  ] as const)('%s → %s', (_case, error, expected) => {
    const tus = fakeTus();
    const on = listeners();
    tusUpload(REQUEST, on, { tuning: TUNING, createUpload: tus.create, network: network() });
    // The service has replied on its path before: no question of reach.
    void tus.state.options.onAfterResponse!({} as never, { getHeader: () => '1.0.0', getBody: () => '' } as never);
    tus.state.options.onError!(error);
    expect([on.onNetworkError.mock.calls.length, on.onRefused.mock.calls.length]).toEqual(expected === 'network' ? [1, 0] : [0, 1]);
  });
});

describe('onPageOrigin', () => {
  const page = 'http://127.0.0.1:8080/UploadWidget/Upload?appId=a';
  it("sends an upload named by another name of the service to the page's own origin", () => {
    expect(onPageOrigin('http://localhost:8080/UploadWidget/files/abc', page)).toBe('http://127.0.0.1:8080/UploadWidget/files/abc');
  });
  it('keeps the path and query, and resolves a relative URL against the page', () => {
    expect(onPageOrigin('https://video.example.com/UploadWidget/files/?x=1', page)).toBe('http://127.0.0.1:8080/UploadWidget/files/?x=1');
    expect(onPageOrigin('/UploadWidget/files/abc', page)).toBe('http://127.0.0.1:8080/UploadWidget/files/abc');
  });
});
