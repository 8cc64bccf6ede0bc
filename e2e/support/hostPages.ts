/**
 * The host pages a third-party app would serve, on another origin (and site) than the service.
 * Each reads its widget configuration from the URL hash (JSON, computed by the test acting as
 * the app backend), opens the widget from the "Open upload" button (a real user gesture) or at
 * load with `?auto` (no gesture: Chromium blocks the popup), and records every outcome event in
 * `window.events`, the progress, state and processing events (with the page's time) in
 * `window.updates`, how the handle's `done` settled in `window.outcome`, and every message the
 * window receives in `window.messages`.
 */

export type HostKind = 'popup' | 'overlay' | 'esm-popup' | 'esm-overlay';

const HARNESS = String.raw`
window.events = [];
window.updates = [];
window.outcome = null;
window.messages = [];
window.addEventListener('message', (event) => {
  window.messages.push({ origin: event.origin, data: event.data });
});
function readConfig() {
  return JSON.parse(decodeURIComponent(location.hash.slice(1)));
}
function record(type) {
  return (info) => window.events.push({ type, info });
}
function update(type) {
  return (info) => window.updates.push({ type, info, at: performance.now() });
}
function openWidget() {
  const config = readConfig();
  try {
    window.handle = OPEN({
      ...config,
      onSuccess: record('success'),
      onFailure: record('failure'),
      onError: record('error'),
      onProgress: update('progress'),
      onStateChange: update('state'),
      onProcessed: update('processed'),
    });
    window.handle.done.then(
      (info) => (window.outcome = { resolved: info }),
      (error) => (window.outcome = { rejected: { name: error.name, kind: error.kind, code: error.code, message: error.message } }),
    );
  } catch (error) {
    window.events.push({ type: 'thrown', info: { name: error.name, message: error.message } });
  }
}
document.getElementById('open').addEventListener('click', openWidget);
if (new URLSearchParams(location.search).has('auto')) openWidget();
`;

function page(title: string, head: string, script: string, scriptType = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>${head}</head>
<body>
<main>
<h1>${title}</h1>
<p>Host page content that the widget must not disturb.</p>
<button id="open" type="button">Open upload</button>
<a href="#after">A link after the button</a>
</main>
<script${scriptType}>${script}</script>
</body>
</html>
`;
}

export function hostPage(kind: HostKind, serviceUrl: string, esmEntry: string): string {
  switch (kind) {
    case 'popup':
      return page(
        'Host popup',
        `<script src="${serviceUrl}/Scripts/UploadWidget/initUploadWidget.js"></script>`,
        HARNESS.replace('OPEN(', 'UploadWidget.openUpload('),
      );
    case 'overlay':
      return page(
        'Host overlay',
        `<script src="${serviceUrl}/Scripts/UploadWidget/initUploadABoxWidget.js"></script>`,
        HARNESS.replace('OPEN(', 'UploadABoxWidget.openUpload('),
      );
    case 'esm-popup':
    case 'esm-overlay': {
      const form = kind === 'esm-popup' ? 'popup' : 'overlay';
      // With `deferMs` in the hash, the signed options come from `config()` that long after the click, as from a slow backend;
      // with `configFails` too, `config()` rejects then instead, as a backend that is down.
      const open = `((given) => {
        const { deferMs, configFails, appId, timestamp, token, videoId, ...rest } = given;
        const signed = { appId, timestamp, token, videoId };
        const answer = (resolve, reject) => setTimeout(() => (configFails ? reject(new Error('backend down')) : resolve(signed)), deferMs);
        const options = deferMs === undefined ? { ...rest, ...signed } : { ...rest, config: () => new Promise(answer) };
        return openUpload({ ...options, serviceUrl: ${JSON.stringify(serviceUrl)}, form: '${form}' });
      })(`;
      return page(
        `Host ESM ${form}`,
        '',
        `import { openUpload } from '/npm/${esmEntry}';\n${HARNESS.replace('OPEN(', open)}`,
        ' type="module"',
      );
    }
  }
}

/** A same-origin parent page that embeds a host page in an iframe, offset from the top-left corner. */
export function framingPage(innerPath: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Framing page</title>
<style>body { margin: 0 } iframe { position: absolute; left: 300px; top: 200px; width: 700px; height: 500px; border: 0 }</style></head>
<body>
<iframe id="child" title="Embedded host page" src="${innerPath}"></iframe>
</body>
</html>
`;
}

/** A page on a third origin that tests use to post forged messages. */
export const BLANK_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other origin</title></head><body><p>Another origin</p></body></html>\n';
