// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH, fakePopup, SERVICE } from '../track/fakePage';
import { defineVideoUpload, type VideoUploadElement } from './index';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** `<video-upload>` with these attributes, in the page. */
function element(attributes: Record<string, string>): VideoUploadElement {
  const node = document.createElement('video-upload');
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return document.body.appendChild(node);
}
const ATTRIBUTES = { 'service-url': SERVICE, 'app-id': AUTH.appId, timestamp: AUTH.timestamp, token: AUTH.token, 'video-id': AUTH.videoId };
const button = (node: VideoUploadElement) => node.shadowRoot!.querySelector<HTMLButtonElement>('button[part="button"]')!;
const settle = () => new Promise((resolve) => setTimeout(resolve));

describe('<video-upload>', () => {
  it('opens the uploader on a click on its button, with the options its kebab-case attributes give', () => {
    const page = fakePopup();
    const node = element({
      ...ATTRIBUTES,
      'upload-type': 'silverlight',
      'need-handle-sepcial': '',
      lang: 'zh-TW',
      'accent-color': '#0f766e',
    });
    expect(node.getAttribute('state')).toBe('idle');
    button(node).click();
    expect(page.open).toHaveBeenCalledOnce();
    expect(Object.fromEntries(page.url().searchParams)).toMatchObject({
      ...AUTH,
      uploadType: 'silverlight',
      needHandleSepcial: 'true',
      lang: 'zh-TW',
      accentColor: '#0f766e',
      form: 'popup',
    });
    expect([node.state, node.getAttribute('state'), button(node).disabled]).toEqual(['open', 'open', true]);
  });

  it("reads the restrictions' numbers and lists from their attributes", () => {
    const page = fakePopup();
    const node = element({ ...ATTRIBUTES, 'max-file-size': '1048576', accept: 'mp4 webm', 'min-duration': '2.5', 'max-duration': '600' });
    node.open();
    expect(Object.fromEntries(page.url().searchParams)).toMatchObject({
      maxFileSize: '1048576',
      accept: '["mp4","webm"]',
      minDuration: '2.5',
      maxDuration: '600',
    });
  });

  it('reads the sources as a list, split or as JSON', () => {
    for (const sources of ['file camera', 'file, camera', '["file","camera"]']) {
      const page = fakePopup();
      element({ ...ATTRIBUTES, sources }).open();
      expect(page.url().searchParams.get('sources'), sources).toBe('["file","camera"]');
    }
  });

  it('reads true and false from boolean attributes, and opens the overlay form when asked', async () => {
    const page = fakePopup();
    const node = element({ ...ATTRIBUTES, form: 'overlay', 'is-top': 'false', 'need-handle-sepcial': 'false', left: '10px' });
    const failures: unknown[] = [];
    node.addEventListener('failure', (event) => failures.push(event.detail));
    node.open();
    await settle();
    expect(page.open).not.toHaveBeenCalled();
    expect(document.querySelector('open-upload-overlay')).not.toBeNull();
    expect([failures, node.state]).toEqual([[], 'open']);
  });

  it('fires each callback as a DOM event with its info as detail, after the handlers of its options', () => {
    const page = fakePopup();
    const node = element(ATTRIBUTES);
    const calls: string[] = [];
    node.options = { onSuccess: () => calls.push('onSuccess') };
    for (const type of ['success', 'failure', 'error', 'progress', 'statechange', 'processed'] as const) {
      node.addEventListener(type, (event) => calls.push(`${event.type} ${JSON.stringify(event.detail)}`));
    }
    button(node).click();
    page.say({ type: 'progress', info: { bytesUploaded: 4, bytesTotal: 10 } });
    expect(node.state).toBe('progress');
    page.say({ type: 'state', info: { state: 'paused' } });
    page.say({ type: 'error', info: { videoId: 'v-1', reason: 'network', message: 'lost' } });
    page.say({ type: 'failure', info: { videoId: 'v-1', reason: 'rejected', message: 'not a video' } });
    page.say({ type: 'success', info: { videoId: 'v-1', fileName: 'a.mp4', fileSize: 10 } });
    page.say({ type: 'processed', info: { videoId: 'v-1', status: 1 } });
    expect(calls).toEqual([
      'progress {"bytesUploaded":4,"bytesTotal":10}',
      'statechange {"state":"paused"}',
      'error {"videoId":"v-1","reason":"network","message":"lost"}',
      'failure {"videoId":"v-1","reason":"rejected","message":"not a video"}',
      'onSuccess',
      'success {"videoId":"v-1","fileName":"a.mp4","fileSize":10}',
      'processed {"videoId":"v-1","status":1}',
    ]);
    expect([node.state, button(node).disabled]).toEqual(['done', false]);
  });

  it('passes options that attributes cannot carry through its options property', () => {
    const page = fakePopup();
    const node = element({ ...ATTRIBUTES, 'app-id': 'from-attribute' });
    node.options = { appId: 'from-property', radius: '4px' };
    node.open();
    expect(page.url().searchParams.get('appId')).toBe('from-property');
    expect(page.url().searchParams.get('radius')).toBe('4px');
  });

  it('reports an attribute it cannot read as the option the widget expects', async () => {
    fakePopup();
    const node = element({ ...ATTRIBUTES, 'need-handle-sepcial': 'yes' });
    const failures: unknown[] = [];
    node.addEventListener('failure', (event) => failures.push(event.detail));
    node.open();
    await settle();
    expect(failures).toEqual([
      expect.objectContaining({
        reason: 'validation',
        code: '106',
        message: 'Invalid Parameter: needHandleSepcial must be true or false, got "yes"',
      }),
    ]);
    expect(node.state).toBe('failed');
  });

  it('closes the uploader when it leaves the page, and is back to idle', async () => {
    const page = fakePopup();
    const node = element(ATTRIBUTES);
    node.open();
    node.remove();
    expect(page.popup.close).toHaveBeenCalled();
    await settle();
    expect(node.state).toBe('idle');
  });

  it('can be defined again without harm', () => {
    const first = customElements.get('video-upload');
    expect(first).toBeDefined();
    expect(() => defineVideoUpload()).not.toThrow();
    expect(customElements.get('video-upload')).toBe(first);
  });
});
