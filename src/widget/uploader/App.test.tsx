import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageMessage, WithoutEnvelope } from '../../shared/messages';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { App } from './App';
import type { HostLink } from './hostLink';
import type { UploadListeners, UploadRequest } from './uploadCore';

afterEach(cleanup);

const BOOT: UploadPageBoot = {
  videoId: 'video-1',
  channel: 'chan',
  hostOrigin: 'http://host.test',
  form: 'overlay',
  lang: 'en',
  tusEndpoint: 'http://service.test/UploadWidget/tus',
  ticket: 'ticket-1',
  maxFileSize: 2 * 1024 ** 3,
  resume: null,
};

/** A transport double: the test plays the service's side through the recorded listeners. */
function setup(boot: Partial<UploadPageBoot> = {}) {
  const posted: WithoutEnvelope<PageMessage>[] = [];
  let closeListener: (() => void) | undefined;
  const host: HostLink = {
    post: (message) => posted.push(message),
    onClose(listener) {
      closeListener = listener;
      return () => (closeListener = undefined);
    },
  };
  const uploads: { request: UploadRequest; listeners: UploadListeners; pause: ReturnType<typeof vi.fn>; resume: ReturnType<typeof vi.fn> }[] = [];
  const startUpload = vi.fn((request: UploadRequest, listeners: UploadListeners) => {
    const upload = { request, listeners, pause: vi.fn(), resume: vi.fn() };
    uploads.push(upload);
    return { pause: upload.pause, resume: upload.resume };
  });
  let clock = 0;
  render(
    <App
      boot={{ ...BOOT, ...boot }}
      host={host}
      startUpload={startUpload}
      fingerprint={async (file) => `print-of-${file.name}`}
      now={() => clock}
    />,
  );
  return {
    posted,
    uploads,
    startUpload,
    closeFromHost: () => act(() => closeListener?.()),
    setClock: (ms: number) => (clock = ms),
    /** The running upload, once the file was accepted and fingerprinted. */
    upload: async () => {
      await waitFor(() => expect(uploads).toHaveLength(1));
      return uploads[0]!;
    },
  };
}

function video(name = 'clip.mp4', size = 1000, type = 'video/mp4'): File {
  return new File([new Uint8Array(size)], name, { type });
}

function choose(file: File, label = 'Choose a video file') {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

describe('uploader: idle', () => {
  it('offers a button and a drop zone, states the limit and tells the host it is ready', () => {
    const { posted } = setup();
    expect(screen.getByRole('heading', { name: 'Upload a video' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a video file' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Drop a video file here' })).toBeTruthy();
    expect(screen.getByText('Video files up to 2.0 GB.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(posted).toEqual([{ type: 'ready', valid: true }]);
  });

  it('starts the upload when a file is dropped', async () => {
    const { upload } = setup();
    fireEvent.drop(screen.getByRole('group', { name: 'Drop a video file here' }), { dataTransfer: { files: [video('dropped.webm', 10, 'video/webm')] } });
    const { request } = await upload();
    expect(request.file.name).toBe('dropped.webm');
    expect(request).toMatchObject({ videoId: 'video-1', ticket: 'ticket-1', endpoint: BOOT.tusEndpoint, fingerprint: 'print-of-dropped.webm', resume: null });
  });
});

describe('uploader: files refused before any byte is sent', () => {
  it.each([
    ['an empty file', video('empty.mp4', 0), '“empty.mp4” is empty. Choose a video file.'],
    ['a file that is not a video', new File(['hello'], 'notes.txt', { type: 'text/plain' }), '“notes.txt” is not a video file. Choose a video file.'],
    ['a file over the limit', video('big.mp4', 2048), '“big.mp4” is larger than the limit of 1.0 KB.'],
  ])('refuses %s, says why, reports it and lets the user pick another', async (_case, file, text) => {
    const { posted, startUpload } = setup({ maxFileSize: 1024 });
    choose(file);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
    expect(startUpload).not.toHaveBeenCalled();
    expect(posted).toContainEqual({
      type: 'failure',
      info: { videoId: 'video-1', reason: 'rejected', message: text, fileName: file.name, fileSize: file.size },
    });
    expect(screen.getByRole('button', { name: 'Choose a video file' })).toBeTruthy();
  });

  it('accepts a known video extension when the browser gives no type', async () => {
    const { upload } = setup();
    choose(video('movie.mkv', 10, ''));
    expect((await upload()).request.file.name).toBe('movie.mkv');
  });
});

describe('uploader: uploading', () => {
  it('shows percent, bytes, speed and time left, and tells the host it is busy', async () => {
    const { upload, setClock, posted } = setup();
    choose(video('clip.mp4', 1000));
    const { listeners } = await upload();
    expect(posted).toContainEqual({ type: 'uploading', busy: true });
    expect(screen.getByRole('status').textContent).toBe('Uploading “clip.mp4”');

    act(() => listeners.onProgress(250, 1000));
    setClock(1000);
    act(() => listeners.onProgress(500, 1000));

    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('50% · 500 B of 1000 B · 250 B/s · 2 s left')).toBeTruthy();
  });

  it('pauses and resumes', async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    act(() => running.listeners.onProgress(400, 1000));

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(running.pause).toHaveBeenCalledOnce();
    expect(screen.getByRole('status').textContent).toBe('Paused: “clip.mp4”');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(posted.at(-1)).toEqual({ type: 'uploading', busy: false });

    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(running.resume).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(posted.at(-1)).toEqual({ type: 'uploading', busy: true });
  });

  it('cancels back to the file choice', async () => {
    const { upload } = setup();
    choose(video());
    const running = await upload();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(running.pause).toHaveBeenCalledOnce();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose a video file' })).toBeTruthy();
    // A late event of the cancelled upload changes nothing.
    act(() => running.listeners.onSuccess());
    expect(screen.queryByText('“clip.mp4” was uploaded.')).toBeNull();
  });

  it('stops sending when the host closes the widget', async () => {
    const { upload, closeFromHost } = setup();
    choose(video());
    const running = await upload();
    closeFromHost();
    expect(running.pause).toHaveBeenCalledOnce();
  });
});

describe('uploader: outcomes', () => {
  it('reports success with the file name and size', async () => {
    const { upload, posted } = setup();
    choose(video('clip.mp4', 1000));
    const { listeners } = await upload();
    act(() => listeners.onSuccess());
    expect(screen.getByRole('status').textContent).toBe('“clip.mp4” was uploaded.');
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(posted).toContainEqual({ type: 'success', info: { videoId: 'video-1', fileName: 'clip.mp4', fileSize: 1000 } });
  });

  it('shows a network error after the retries, reports it, and continues on Try again', async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    act(() => running.listeners.onNetworkError(300));
    expect(screen.getByRole('alert').textContent).toBe('The connection to the server failed. Try again to continue from where it stopped.');
    expect(posted).toContainEqual({
      type: 'error',
      info: { videoId: 'video-1', reason: 'network', message: expect.any(String), fileName: 'clip.mp4', fileSize: 1000, bytesUploaded: 300 },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(running.resume).toHaveBeenCalledOnce();
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('shows the service refusal with its code and reports it as a failure', async () => {
    const { upload, posted } = setup();
    choose(video());
    const running = await upload();
    act(() => running.listeners.onRefused('107'));
    expect(screen.getByRole('alert').textContent).toBe('The server refused the upload (code 107).');
    expect(posted).toContainEqual({
      type: 'failure',
      info: { videoId: 'video-1', reason: 'server', code: '107', message: 'The server refused the upload (code 107).', fileName: 'clip.mp4', fileSize: 1000 },
    });
  });
});

describe('uploader: resume from the service state', () => {
  const resume = { uploadUrl: 'http://service.test/UploadWidget/tus/abc', offset: 600, size: 1000, fileName: 'clip.mp4', fingerprint: 'print-of-clip.mp4' };

  it('continues the earlier upload when the same file is chosen', async () => {
    const { upload } = setup({ resume });
    expect(screen.getByText('An earlier upload of “clip.mp4” stopped at 60%. Choose the same file to continue from there.')).toBeTruthy();
    choose(video('clip.mp4', 1000));
    expect((await upload()).request.resume).toEqual(resume);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
  });

  it('starts a new upload for another file', async () => {
    const { upload } = setup({ resume });
    choose(video('other.mp4', 1000));
    expect((await upload()).request.resume).toBeNull();
  });
});

describe('uploader: language', () => {
  it('speaks Simplified Chinese when the service says so', async () => {
    const { upload } = setup({ lang: 'zh-CN' });
    expect(screen.getByRole('heading', { name: '上传视频' })).toBeTruthy();
    choose(video(), '选择视频文件');
    await upload();
    expect(screen.getByRole('button', { name: '暂停' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '取消' })).toBeTruthy();
  });
});

describe('uploader: overlay keys', () => {
  it('asks the host to close on Escape', () => {
    const { posted } = setup({ form: 'overlay' });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(posted).toContainEqual({ type: 'close' });
  });
});
