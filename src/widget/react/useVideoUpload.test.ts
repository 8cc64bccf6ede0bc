// @vitest-environment jsdom
import { act, createElement, StrictMode, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH, fakePopup, SERVICE } from '../track/fakePage';
import { useVideoUpload, VideoUploadButton, type VideoUpload } from './index';

// Tells React this is a test, so act() flushes updates and effects.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const OPTIONS = { ...AUTH, serviceUrl: SERVICE };
const SUCCESS = { videoId: 'v-1', fileName: 'a.mp4', fileSize: 10 };

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function render(node: ReactNode) {
  act(() => root.render(createElement(StrictMode, null, node)));
}

const button = () => host.querySelector('button')!;
const click = () => act(() => button().click());
/** Lets `done`'s rejection reach the state. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve)));

describe('VideoUploadButton', () => {
  it('opens the uploader inside the click, follows the upload and calls the app’s handlers', async () => {
    const page = fakePopup();
    const onSuccess = vi.fn();
    const children = (upload: VideoUpload) => `${upload.state} ${upload.progress?.bytesUploaded ?? ''}`;
    render(createElement(VideoUploadButton, { options: { ...OPTIONS, onSuccess }, className: 'mine', children }));
    expect([button().textContent, button().className, button().disabled]).toEqual(['idle ', 'mine', false]);

    click();
    expect(page.open).toHaveBeenCalledOnce();
    expect(page.url().searchParams.get('appId')).toBe('app-a');
    expect([button().textContent, button().dataset.state, button().disabled]).toEqual(['open ', 'open', true]);

    act(() => page.say({ type: 'progress', info: { bytesUploaded: 4, bytesTotal: 10 } }));
    expect(button().textContent).toBe('progress 4');
    act(() => page.say({ type: 'success', info: SUCCESS }));
    expect([button().textContent, button().disabled]).toEqual(['done 4', false]);
    expect(onSuccess).toHaveBeenCalledExactlyOnceWith(SUCCESS);
  });

  it('closes the uploader when it unmounts', () => {
    const page = fakePopup();
    render(createElement(VideoUploadButton, { options: OPTIONS }));
    click();
    render(null);
    expect(page.popup.close).toHaveBeenCalled();
  });

  it('opens nothing when the app’s onClick prevents it', () => {
    const page = fakePopup();
    render(createElement(VideoUploadButton, { options: OPTIONS, onClick: (event) => event.preventDefault() }));
    click();
    expect(page.open).not.toHaveBeenCalled();
  });
});

describe('useVideoUpload', () => {
  let upload: VideoUpload;
  function Probe() {
    upload = useVideoUpload();
    return null;
  }

  it('is back to idle after a close with nothing uploaded', async () => {
    fakePopup();
    render(createElement(Probe));
    act(() => void upload.open(OPTIONS));
    expect(upload.state).toBe('open');
    act(() => upload.close());
    await settle();
    expect([upload.state, upload.error?.kind]).toEqual(['idle', 'closed']);
  });

  it('reports a refused configuration as failed, with its code', async () => {
    fakePopup();
    render(createElement(Probe));
    act(() => void upload.open({ ...OPTIONS, appId: '' }));
    await settle();
    expect([upload.state, upload.error?.kind, upload.error?.code]).toEqual(['failed', 'failure', '101']);
  });

  it('follows only its latest open', async () => {
    const first = fakePopup();
    render(createElement(Probe));
    act(() => void upload.open(OPTIONS));
    const second = fakePopup();
    act(() => void upload.open(OPTIONS));
    expect(first.popup.close).toHaveBeenCalled();
    await settle();
    act(() => first.say({ type: 'success', info: SUCCESS }));
    expect(upload.state).toBe('open');
    act(() => second.say({ type: 'progress', info: { bytesUploaded: 1, bytesTotal: 10 } }));
    expect([upload.state, upload.progress]).toEqual(['progress', { bytesUploaded: 1, bytesTotal: 10 }]);
  });
});
