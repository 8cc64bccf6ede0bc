import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

// Node alone: no window, document or customElements, as in a server render (Next.js, Remix).
describe('on a server', () => {
  it('the React wrapper renders its button without touching the browser', async () => {
    const { VideoUploadButton } = await import('../react/index');
    const html = renderToString(
      createElement(VideoUploadButton, {
        options: { serviceUrl: 'http://service.test', appId: 'a', timestamp: '1', token: 't', videoId: 'v' },
      }),
    );
    expect(html).toBe('<button type="button" data-state="idle">Upload video</button>');
  });

  it('the element module imports and defines nothing', async () => {
    expect('customElements' in globalThis).toBe(false);
    const { defineVideoUpload } = await import('../element/index');
    expect(() => defineVideoUpload()).not.toThrow();
  });
});
