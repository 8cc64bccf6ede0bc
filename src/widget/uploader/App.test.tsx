import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostMessage, PageMessage, WithoutEnvelope } from '../../shared/messages';
import { stringTable } from '../../shared/i18n/tables';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { App } from './App';
import type { HostLink } from './hostLink';
import type { RetryPolicy } from './machine';
import type { UploadListeners, UploadRequest } from './uploadCore';
import type { PreviewResult, previewVideo } from './videoPreview';
import type { FileHandle, HandleStore } from './fileHandles';
import * as LIMITS from './limits';

afterEach(cleanup);

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

/** A transport double: the test plays the service's side through the recorded listeners. */
function setup(
  boot: Partial<UploadPageBoot> = {},
  {
    // Every failure the transport reports is news, as once the quiet retries are spent.
    retry = { delays: [], everyMs: 60_000 } as RetryPolicy,
    discardResult = true,
    previewResult = { kind: 'none' } as PreviewResult,
    statuses = [] as (number | undefined)[],
    handles = undefined as HandleStore | undefined,
    limits = undefined as typeof LIMITS | undefined,
  } = {},
) {
  const posted: WithoutEnvelope<PageMessage>[] = [];
  let hostListener: ((type: HostMessage['type']) => void) | undefined;
  const host: HostLink = {
    post: (message) => posted.push(message),
    onHost(listener) {
      hostListener = listener;
      return () => (hostListener = undefined);
    },
  };
  const discard = vi.fn(async () => discardResult);
  const preview = vi.fn<typeof previewVideo>(async () => previewResult);
  // The service's answers after the upload, one per question; the last one repeats.
  const processingStatus = vi.fn<(ticket: string) => Promise<number | undefined>>(async () =>
    statuses.length > 1 ? statuses.shift() : statuses[0],
  );
  const uploads: {
    request: UploadRequest;
    listeners: UploadListeners;
    pause: ReturnType<typeof vi.fn>;
    resume: ReturnType<typeof vi.fn>;
  }[] = [];
  const startUpload = vi.fn((request: UploadRequest, listeners: UploadListeners) => {
    const upload = { request, listeners, pause: vi.fn(), resume: vi.fn() };
    uploads.push(upload);
    return { pause: upload.pause, resume: upload.resume };
  });
  let clock = 0;
  render(
    <App
      boot={{ ...BOOT, ...boot }}
      strings={stringTable(boot.lang ?? BOOT.lang, boot.strings)}
      host={host}
      startUpload={startUpload}
      fingerprint={async (file) => `print-of-${file.name}`}
      now={() => clock}
      retry={retry}
      discard={discard}
      preview={preview}
      processingStatus={processingStatus}
      statusPollMs={5}
      handles={handles}
      limits={limits}
    />,
  );
  return {
    posted,
    uploads,
    startUpload,
    discard,
    preview,
    processingStatus,
    closeFromHost: () => act(() => hostListener?.('close')),
    askCloseFromHost: () => act(() => hostListener?.('askClose')),
    setClock: (ms: number) => (clock = ms),
    /** The running upload, once the file was accepted and fingerprinted. */
    upload: async () => {
      await waitFor(() => expect(uploads).toHaveLength(1));
      return uploads[0]!;
    },
  };
}

/** An MP4 box header, so the content check sees a video container. */
const MP4_HEAD = [0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')];

function video(name = 'clip.mp4', size = 1000, type = 'video/mp4'): File {
  const bytes = new Uint8Array(size);
  bytes.set(MP4_HEAD.slice(0, size));
  return new File([bytes], name, { type });
}

function choose(file: File, label = 'Choose a video file') {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

// What the uploader decides (which state follows which event, what the host hears) is tested as
// tables in machine.test.ts. These tests keep what only a DOM shows (labels, focus, live regions,
// window and host events) and that createUploader wires the machine to tus, the host and the browser.

describe('uploader: idle', () => {
  it('offers a button and a drop zone, states the limit and tells the host it is ready', () => {
    const { posted } = setup();
    expect(screen.getByRole('heading', { name: 'Upload a video' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a video file' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Drop a video file here' })).toBeTruthy();
    expect(screen.getByText('Video files up to 2.0 GiB.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(posted).toEqual([{ type: 'ready', valid: true }]);
  });

  it('starts the upload when a file is dropped', async () => {
    const { upload } = setup();
    fireEvent.drop(screen.getByRole('group', { name: 'Drop a video file here' }), {
      dataTransfer: { files: [video('dropped.webm', 10, 'video/webm')] },
    });
    const { request } = await upload();
    expect(request.file.name).toBe('dropped.webm');
    expect(request).toMatchObject({
      videoId: 'video-1',
      ticket: 'ticket-1',
      endpoint: BOOT.tusEndpoint,
      fingerprint: 'print-of-dropped.webm',
      resume: null,
    });
  });
});

describe('uploader: a file refused before any byte is sent', () => {
  it('refuses a file named and typed as a video whose content is not one, before any request', async () => {
    const { posted, startUpload } = setup();
    const text = '“fake.mp4” does not contain a video in any format we know, whatever its name says. Choose a video file.';
    choose(new File(['just some notes, renamed\n'.repeat(40)], 'fake.mp4', { type: 'video/mp4' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
    expect(startUpload).not.toHaveBeenCalled();
    expect(posted).toContainEqual({
      type: 'failure',
      info: expect.objectContaining({ reason: 'rejected', fileName: 'fake.mp4', message: text }),
    });
    expect(screen.getByRole('button', { name: 'Choose a video file' })).toBeTruthy();
  });
});

describe("uploader: the page's restrictions", () => {
  const READY: PreviewResult = { kind: 'ready', poster: 'data:image/jpeg;base64,AA==', duration: 12.04, width: 1280, height: 720 };
  const limits = { accept: ['mp4' as const, 'webm' as const], minDuration: 1, maxDuration: 10 };

  it('says them under the size limit before a file is chosen', () => {
    setup({ maxFileSize: 5_000_000, limits }, { limits: LIMITS });
    expect(screen.getByText('Video files up to 4.8 MiB.')).toBeTruthy();
    expect(screen.getByText('Formats: MP4, WebM.')).toBeTruthy();
    expect(screen.getByText('Length: 1 s to 10 s.')).toBeTruthy();
  });

  it('reads the duration before any request, once for the check and the preview, and refuses a file too long', async () => {
    const { posted, startUpload, preview } = setup({ limits }, { previewResult: READY, limits: LIMITS });
    choose(video('long.mp4'));
    const text = '“long.mp4” is 12 s long; this site takes videos of at most 10 s.';
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
    expect(startUpload).not.toHaveBeenCalled();
    expect(preview).toHaveBeenCalledOnce();
    expect(posted).toContainEqual({
      type: 'failure',
      info: expect.objectContaining({ reason: 'rejected', code: 'tooLong', message: text }),
    });
  });

  it('uploads a file within them once its duration is read', async () => {
    const { upload, preview } = setup({ limits: { ...limits, maxDuration: 60 } }, { previewResult: READY, limits: LIMITS });
    choose(video('clip.mp4'));
    await upload();
    await screen.findByRole('img', { name: 'A frame of “clip.mp4”' });
    expect(preview).toHaveBeenCalledOnce();
  });

  it('refuses a container the page does not list, by its first bytes', async () => {
    const { startUpload } = setup({ limits: { accept: ['webm'] } }, { limits: LIMITS });
    choose(video('clip.webm', 1000, 'video/webm'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('“clip.webm” is in the MP4 format; this site takes WebM only.'));
    expect(startUpload).not.toHaveBeenCalled();
  });
});

describe('uploader: uploading', () => {
  it('shows percent, bytes, speed and time left, and tells the host it is busy', async () => {
    const { upload, setClock, posted } = setup();
    choose(video('clip.mp4', 1000));
    const { listeners } = await upload();
    expect(posted).toContainEqual({ type: 'uploading', busy: true });
    expect(screen.getByRole('status').textContent).toBe('Uploading “clip.mp4”');

    await act(() => listeners.onProgress(250, 1000));
    setClock(1000);
    await act(() => listeners.onProgress(500, 1000));

    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('50% · 500 B of 1000 B · 250 B/s · 2 s left')).toBeTruthy();
  });

  it('asks before another file replaces a cancelled upload, with the safe answer focused', async () => {
    const { upload, uploads } = setup();
    choose(video('clip.mp4', 1000));
    const first = await upload();
    await act(() => first.listeners.onStored('http://service.test/UploadWidget/tus/u-1', 400));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('An earlier upload of “clip.mp4” stopped at 40%. Choose the same file to continue from there.')).toBeTruthy();
    choose(video('other.mp4', 1000));
    const question = await screen.findByRole('alertdialog');
    expect(question.textContent).toContain('The server holds 40% of “clip.mp4”. Upload “other.mp4” instead and discard it?');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Keep it'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload the new file' }));
    await waitFor(() => expect(uploads).toHaveLength(2));
    expect(uploads[1]!.request.resume).toBeNull();
  });

  it('discards the stored upload only after asking, and then offers nothing to resume', async () => {
    const resume = {
      uploadUrl: 'http://service.test/UploadWidget/tus/abc',
      offset: 600,
      size: 1000,
      fileName: 'clip.mp4',
      fingerprint: 'print-of-clip.mp4',
    };
    const { discard } = setup({ resume });
    fireEvent.click(screen.getByRole('button', { name: 'Discard upload' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Discard the 60% of “clip.mp4” the server holds?');
    expect(discard).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Discard upload' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The earlier upload was discarded.'));
    expect(discard).toHaveBeenCalledExactlyOnceWith(resume.uploadUrl, 'ticket-1');
    expect(screen.queryByText(/An earlier upload/)).toBeNull();
  });

  it('stops sending when the host closes the widget', async () => {
    const { upload, closeFromHost } = setup();
    choose(video());
    const running = await upload();
    await closeFromHost();
    expect(running.pause).toHaveBeenCalledOnce();
  });
});

describe('uploader: keyboard and screen readers', () => {
  const focused = () => document.activeElement?.textContent;

  it('keeps focus on a meaningful control through choose, pause, resume, cancel', async () => {
    const { upload } = setup();
    choose(video());
    const running = await upload();
    await waitFor(() => expect(focused()).toBe('Pause'));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(running.pause).toHaveBeenCalledOnce();
    expect(screen.getByRole('status').textContent).toBe('Paused: “clip.mp4”');
    await waitFor(() => expect(focused()).toBe('Resume'));
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(running.resume).toHaveBeenCalledOnce();
    await waitFor(() => expect(focused()).toBe('Pause'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(focused()).toBe('Choose a video file'));
    expect(screen.getByRole('alert').textContent).toBe('Upload canceled. Choose the same file to continue, or another one.');
  });

  it('after success says what happens next, focuses Close, and Close asks the host to close', async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    await act(() => running.listeners.onSuccess());
    expect(screen.getByRole('status').textContent).toBe('“clip.mp4” was uploaded.');
    expect(posted).toContainEqual({ type: 'success', info: { videoId: 'video-1', fileName: 'clip.mp4', fileSize: 1000 } });
    expect(screen.getByText('It is being processed now; the video will be ready to play in a few minutes.')).toBeTruthy();
    await waitFor(() => expect(focused()).toBe('Close'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(posted.at(-1)).toEqual({ type: 'close' });
  });

  it('gives the bar a spoken value and announces progress in 10 % steps only', async () => {
    const { upload } = setup();
    choose(video('clip.mp4', 1000));
    const running = await upload();
    await act(() => running.listeners.onProgress(372, 1000));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('37%, 372 B of 1000 B');
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('“clip.mp4”: 30% uploaded');
    await act(() => running.listeners.onProgress(399, 1000));
    expect(live.textContent).toBe('“clip.mp4”: 30% uploaded');
    await act(() => running.listeners.onProgress(401, 1000));
    expect(live.textContent).toBe('“clip.mp4”: 40% uploaded');
  });

  it('takes a pasted file as if it had been chosen', async () => {
    const { upload } = setup();
    const pasted = new Event('paste', { cancelable: true }) as Event & { clipboardData: unknown };
    pasted.clipboardData = { files: [video('pasted.mp4')] };
    await act(() => void window.dispatchEvent(pasted));
    expect((await upload()).request.file.name).toBe('pasted.mp4');
    expect(pasted.defaultPrevented).toBe(true);
  });
});

describe('uploader: one uploader for the page', () => {
  it('keeps it through renders with new props: the host hears ready once, and the upload goes on', async () => {
    const posted: WithoutEnvelope<PageMessage>[] = [];
    const host: HostLink = { post: (message) => posted.push(message), onHost: () => () => undefined };
    const transports: { resume: ReturnType<typeof vi.fn>; listeners: UploadListeners }[] = [];
    const startUpload = vi.fn((_request: UploadRequest, listeners: UploadListeners) => {
      const transport = { resume: vi.fn(), listeners };
      transports.push(transport);
      return { pause: vi.fn(), resume: transport.resume };
    });
    // New functions at each render, as a parent that re-renders would pass.
    const app = () => (
      <App
        boot={BOOT}
        strings={stringTable('en', {})}
        host={host}
        startUpload={startUpload}
        fingerprint={async (file) => `print-of-${file.name}`}
        now={() => 0}
        retry={{ delays: [], everyMs: 60_000 }}
        preview={async () => ({ kind: 'none' })}
        processingStatus={async () => undefined}
      />
    );
    const { rerender } = render(app());
    choose(video());
    await waitFor(() => expect(transports).toHaveLength(1));
    rerender(app());
    rerender(app());
    await act(() => transports[0]!.listeners.onNetworkError(300));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(transports[0]!.resume).toHaveBeenCalledOnce();
    expect(posted.filter((message) => message.type === 'ready')).toHaveLength(1);
    expect(startUpload).toHaveBeenCalledOnce();
  });
});

describe('uploader: outcomes', () => {
  it('after a network failure says so, shows what the service confirmed, reports it, and continues on Try again', async () => {
    const { upload, posted } = setup();
    choose(video('clip.mp4', 1000));
    const running = await upload();
    await act(() => running.listeners.onProgress(700, 1000));
    await act(() => running.listeners.onNetworkError(300));
    expect(screen.getByRole('alert').textContent).toBe('The connection to the server failed. Try again to continue from where it stopped.');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    expect(screen.getByRole('status').textContent).toBe(
      'Connection lost: “clip.mp4”. The upload continues by itself when the connection is back.',
    );
    expect(posted).toContainEqual({
      type: 'error',
      info: {
        videoId: 'video-1',
        reason: 'network',
        message: expect.any(String),
        fileName: 'clip.mp4',
        fileSize: 1000,
        bytesUploaded: 300,
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(running.resume).toHaveBeenCalledOnce();
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('offline, waits for the browser to be online and then continues by itself, with no click', async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await act(() => running.listeners.onNetworkError(300));
    offline.mockRestore();
    expect(posted).toContainEqual({ type: 'state', info: { state: 'offline' } });
    expect(running.resume).not.toHaveBeenCalled();
    await act(() => void window.dispatchEvent(new Event('online')));
    expect(running.resume).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('tries again by itself after a pause while the browser is online (the service may be back)', async () => {
    const { upload } = setup({}, { retry: { delays: [], everyMs: 20 } });
    choose(video());
    const running = await upload();
    await act(() => running.listeners.onNetworkError(300));
    await waitFor(() => expect(running.resume).toHaveBeenCalledOnce());
  });

  it('tries a failure again quietly first: no word on screen or to the host, and bytes move on', async () => {
    const { upload, posted } = setup({}, { retry: { delays: [5], everyMs: 60_000 } });
    choose(video());
    const running = await upload();
    const before = posted.length;
    await act(() => running.listeners.onNetworkError(300));
    expect(screen.getByRole('alert').textContent).toBe('');
    await waitFor(() => expect(running.resume).toHaveBeenCalledOnce());
    expect(posted.slice(before)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it("says the site reached its limit for now, and reports the failure with code 116 and the refused request's id", async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    await act(() => running.listeners.onRefused('116', 'req-429'));
    const text = 'This site has reached its limit of uploads for now. Wait a minute, then try again (code 116).';
    expect(screen.getByRole('alert').textContent).toBe(text);
    expect(posted).toContainEqual({
      type: 'failure',
      info: expect.objectContaining({ reason: 'server', code: '116', message: text, requestId: 'req-429' }),
    });
  });
});

describe('uploader: resume from the service state', () => {
  const resume = {
    uploadUrl: 'http://service.test/UploadWidget/tus/abc',
    offset: 600,
    size: 1000,
    fileName: 'clip.mp4',
    fingerprint: 'print-of-clip.mp4',
  };

  it('continues the earlier upload when the same file is chosen', async () => {
    const { upload } = setup({ resume });
    expect(screen.getByText('An earlier upload of “clip.mp4” stopped at 60%. Choose the same file to continue from there.')).toBeTruthy();
    choose(video('clip.mp4', 1000));
    expect((await upload()).request.resume).toEqual(resume);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
  });
});

describe('uploader: language', () => {
  it.each([
    ['zh-CN', '上传视频', '选择视频文件', '暂停', '正在上传“clip.mp4”'],
    ['zh-TW', '上傳影片', '選擇影片檔案', '暫停', '正在上傳「clip.mp4」'],
  ] as const)('speaks %s when the service says so', async (lang, title, chooseLabel, pause, status) => {
    const { upload } = setup({ lang });
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    expect(document.querySelector('main')!.getAttribute('lang')).toBe(lang);
    choose(video(), chooseLabel);
    await upload();
    expect(screen.getByRole('button', { name: pause })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(status);
  });
});

describe('uploader: the kept file handle (popup form)', () => {
  const resume = {
    uploadUrl: 'http://service.test/UploadWidget/tus/abc',
    offset: 600,
    size: 1000,
    fileName: 'clip.mp4',
    fingerprint: 'print-of-clip.mp4',
  };
  /** A handle store double: `kept` is what IndexedDB holds; `file` what the handle opens (undefined: permission refused). */
  function handleStore(kept: FileHandle | undefined, file: File | undefined) {
    return {
      save: vi.fn(async () => {}),
      load: vi.fn(async () => kept),
      forget: vi.fn(async () => {}),
      open: vi.fn(async () => file),
    } satisfies HandleStore;
  }
  const handleOf = (name: string) => ({ name }) as FileHandle;

  it('offers to continue the unfinished upload from its kept handle, with no file dialog, and resumes', async () => {
    const handles = handleStore(handleOf('clip.mp4'), video('clip.mp4', 1000));
    const { upload } = setup({ form: 'popup', resume }, { handles });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue “clip.mp4” from 60%' }));
    expect((await upload()).request.resume).toEqual(resume);
    expect(handles.load).toHaveBeenCalledWith('video-1');
  });

  it('says so when the browser does not let it read the file again, and the file button remains', async () => {
    const handles = handleStore(handleOf('clip.mp4'), undefined);
    const { startUpload } = setup({ form: 'popup', resume }, { handles });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue “clip.mp4” from 60%' }));
    await screen.findByText('“clip.mp4” could not be opened again. Choose it with the button below.');
    expect(screen.queryByRole('button', { name: /^Continue/ })).toBeNull();
    expect(startUpload).not.toHaveBeenCalled();
  });

  it('keeps the handle of a dropped file, and forgets it once uploaded', async () => {
    const picked = handleOf('clip.mp4');
    const handles = handleStore(undefined, undefined);
    const { upload } = setup({ form: 'popup' }, { handles });
    const item = { getAsFileSystemHandle: async () => Object.assign(picked, { kind: 'file' }) };
    fireEvent.drop(screen.getByRole('group', { name: 'Drop a video file here' }), {
      dataTransfer: { files: [video('clip.mp4', 1000)], items: [item] },
    });
    const running = await upload();
    expect(handles.save).toHaveBeenCalledWith('video-1', picked);
    await act(() => running.listeners.onSuccess());
    expect(handles.forget).toHaveBeenCalledWith('video-1');
  });
});

describe('uploader: events for the host page', () => {
  const ofType = (posted: WithoutEnvelope<PageMessage>[], ...types: PageMessage['type'][]) =>
    posted.filter((message) => types.includes(message.type));

  it('reports progress at most every 100 ms with the latest figure, then the last one and finishing', async () => {
    const { upload, posted } = setup();
    choose(video('clip.mp4', 1000));
    const running = await upload();
    await act(() => {
      for (const sent of [100, 200, 300, 400]) running.listeners.onProgress(sent, 1000);
    });
    // The first at once, the others wait for the period's end, and only the latest of them goes.
    expect(ofType(posted, 'progress')).toEqual([{ type: 'progress', info: { bytesUploaded: 100, bytesTotal: 1000 } }]);
    await waitFor(() => expect(ofType(posted, 'progress')).toHaveLength(2));
    expect(ofType(posted, 'progress')[1]).toEqual({ type: 'progress', info: { bytesUploaded: 400, bytesTotal: 1000 } });
    await act(() => {
      running.listeners.onProgress(900, 1000);
      running.listeners.onProgress(1000, 1000);
    });
    // All sent: the last figure is not held back, and finishing comes after it, once.
    expect(ofType(posted, 'progress', 'state').slice(-2)).toEqual([
      { type: 'progress', info: { bytesUploaded: 1000, bytesTotal: 1000 } },
      { type: 'state', info: { state: 'finishing' } },
    ]);
    const before = posted.length;
    await act(() => running.listeners.onProgress(1000, 1000));
    expect(posted).toHaveLength(before);
  });
});

describe('uploader: after the upload', () => {
  it('follows processing with the ticket until it ends, says how it went, tells the host once, then stops asking', async () => {
    const { upload, posted, processingStatus } = setup({}, { statuses: [5, undefined, 6, 7] });
    choose(video());
    const running = await upload();
    await act(() => running.listeners.onSuccess());
    await screen.findByText('Processing failed. The site owner can see why.');
    expect(processingStatus).toHaveBeenCalledWith('ticket-1');
    const asked = processingStatus.mock.calls.length;
    await new Promise((wait) => setTimeout(wait, 50));
    expect(processingStatus.mock.calls.length).toBe(asked);
    expect(posted.filter((message) => message.type === 'processed')).toEqual([
      { type: 'processed', info: { videoId: 'video-1', status: 7 } },
    ]);
  });
});

describe('uploader: preview', () => {
  it('shows a poster frame, the duration and the resolution of the chosen file while it uploads', async () => {
    const { upload, preview } = setup(
      {},
      { previewResult: { kind: 'ready', poster: 'data:image/jpeg;base64,AA==', duration: 12.04, width: 1280, height: 720 } },
    );
    choose(video('clip.mp4'));
    await upload();
    const poster = await screen.findByRole('img', { name: 'A frame of “clip.mp4”' });
    expect(poster.getAttribute('src')).toBe('data:image/jpeg;base64,AA==');
    expect(poster.closest('figure')!.textContent).toBe('0:12 · 1280 × 720');
    expect(document.querySelector('time')!.getAttribute('datetime')).toBe('PT12.040S');
    expect(preview).toHaveBeenCalledOnce();
  });

  it('says when the browser cannot preview the format, and the upload goes on', async () => {
    const { upload } = setup();
    choose(video('clip.mkv', 1000, 'video/x-matroska'));
    await upload();
    await screen.findByText('No preview for this format.');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });
});

describe("uploader: the host's look", () => {
  it('puts the theme and accent on the page before it paints', () => {
    setup({ look: { theme: 'dark', accentColor: '#0f766e' } });
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.getPropertyValue('--accent')).toBe('#0f766e');
  });
});

describe('uploader: overlay keys', () => {
  it('closes on Escape when idle, asks first while bytes move, keeps uploading, and closes only when confirmed', async () => {
    const { posted, upload } = setup({ form: 'overlay' });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(posted.at(-1)).toEqual({ type: 'close' });
    choose(video('clip.mp4', 1000));
    const running = await upload();
    await act(() => running.listeners.onProgress(370, 1000));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.getByRole('alertdialog').textContent).toContain('Stop uploading? You can continue later from 37%.');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Keep uploading'));
    expect(posted.filter((message) => message.type === 'close')).toHaveLength(1);
    // Escape again answers with the safe choice.
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(running.pause).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Pause'));

    fireEvent.keyDown(window, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Stop and close' }));
    expect(running.pause).toHaveBeenCalledOnce();
    expect(posted.slice(-3)).toEqual([{ type: 'uploading', busy: false }, { type: 'state', info: { state: 'paused' } }, { type: 'close' }]);
  });

  it('asks when the host reports × or Escape mid-upload, and closes at once when nothing moves', async () => {
    const { posted, upload, askCloseFromHost } = setup({ form: 'overlay' });
    choose(video('clip.mp4', 1000));
    const running = await upload();
    await askCloseFromHost();
    fireEvent.click(screen.getByRole('button', { name: 'Keep uploading' }));
    expect(running.pause).not.toHaveBeenCalled();
    expect(posted).not.toContainEqual({ type: 'close' });
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await askCloseFromHost();
    expect(posted.at(-1)).toEqual({ type: 'close' });
  });

  it('has the browser ask before the popup window closes mid-upload', async () => {
    const { upload } = setup({ form: 'popup' });
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    choose(video('clip.mp4', 1000));
    await upload();
    await waitFor(() => expect(leave()).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(leave()).toBe(false));
  });
});

describe('uploader: the `strings` option', () => {
  it('shows a replaced text as text, never as HTML, with its values filled in', async () => {
    const { upload } = setup({ strings: { choose: 'Pick <b>your</b> clip', uploading: 'Sending {name} now' } });
    expect(screen.getByText('Pick <b>your</b> clip')).toBeTruthy();
    choose(video(), 'Pick <b>your</b> clip');
    await upload();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Sending clip.mp4 now');
  });

  it('speaks Arabic from its own table', () => {
    setup({ lang: 'ar' });
    expect(screen.getByRole('heading', { name: 'رفع فيديو' })).toBeTruthy();
    expect(screen.getByLabelText('اختر ملف فيديو')).toBeTruthy();
  });
});
