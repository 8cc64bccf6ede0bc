/** The demo app's page. It receives signed values from its backend, never the AppSecret. */

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function demoPage(serviceUrl: string): string {
  const service = escapeAttribute(serviceUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upload widget demo app</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 880px; margin: 2rem auto; padding: 0 1rem; color: #1e293b }
fieldset { border: 1px solid #cbd5e1; border-radius: 8px; margin: 0 0 1rem; padding: .75rem 1rem }
label { display: inline-block; margin-right: 1rem }
button { font: inherit; padding: .35rem .9rem; margin: .25rem .5rem .25rem 0 }
code, #log { font: 13px/1.4 ui-monospace, monospace }
#log li { margin: .2rem 0; word-break: break-all }
table { border-collapse: collapse } td, th { border: 1px solid #cbd5e1; padding: .2rem .5rem; text-align: left }
</style>
<script src="${service}/Scripts/UploadWidget/initUploadWidget.js"></script>
<script src="${service}/Scripts/UploadWidget/initUploadABoxWidget.js"></script>
</head>
<body>
<h1>Demo app</h1>
<p>This page is a third-party app on its own origin. Its backend holds the AppSecret, registers a video
with <code>/Api/Video/Post</code> (SourceFileGetType 1) and hands this page only <code>appId</code>,
<code>timestamp</code>, <code>token</code> and <code>videoId</code>. Service: <code>${service}</code></p>

<fieldset>
<legend>1. Register a video</legend>
<label>Video title <input id="title" value="Demo video" maxlength="50"></label>
<label>User name <input id="user" value="demo-user" maxlength="50"></label>
<button id="register" type="button">Register a video</button>
<p>Video: <output id="video-id">none yet</output></p>
</fieldset>

<fieldset>
<legend>2. Upload its file</legend>
<button id="popup" type="button" disabled>Upload in a popup</button>
<button id="overlay" type="button" disabled>Upload in an overlay</button>
<label><input id="special" type="checkbox"> needHandleSepcial (keep the source, no transcoding)</label>
<label><input id="record" type="checkbox"> Record: offer the camera and the screen beside the file, and upload while recording
(<code>sources: ['file', 'camera', 'screen'], uploadWhileRecording: true</code>)</label>
</fieldset>

<h2>Widget events</h2>
<ol id="log" aria-label="Widget events" reversed></ol>

<h2>Status callbacks received by the backend</h2>
<table><thead><tr><th>Received</th><th>VideoId</th><th>VideoStatus</th><th>Check</th></tr></thead>
<tbody id="callbacks" aria-label="Status callbacks"></tbody></table>

<h2>The video, as <code>/Api/Video/Get</code> reports it</h2>
<button id="status" type="button" disabled>Check status</button>
<pre id="video" aria-label="Video details"></pre>

<script src="/demo.js"></script>
</body>
</html>
`;
}

/** Served as /demo.js. Plain browser JavaScript; every value from elsewhere is shown with textContent. */
export const DEMO_SCRIPT = String.raw`
'use strict';
const $ = (id) => document.getElementById(id);
let current = null;

function log(kind, detail) {
  const item = document.createElement('li');
  item.dataset.kind = kind;
  item.textContent = new Date().toLocaleTimeString() + '  ' + kind + '  ' + JSON.stringify(detail);
  $('log').prepend(item);
}

async function register() {
  const res = await fetch('/videos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: $('title').value, user: $('user').value }),
  });
  const body = await res.json();
  if (!res.ok) return log('registration failed', body);
  current = body;
  $('video-id').textContent = current.videoId;
  for (const id of ['popup', 'overlay', 'status']) $(id).disabled = false;
  log('registered', { videoId: current.videoId });
}

// The service accepts a Timestamp within 600 s: fetch a fresh signature well before that.
setInterval(async () => {
  if (!current) return;
  const res = await fetch('/videos/' + encodeURIComponent(current.videoId) + '/signature');
  if (res.ok) current = await res.json();
}, 5 * 60 * 1000);

function options() {
  return {
    ...current,
    needHandleSepcial: $('special').checked,
    ...($('record').checked ? { sources: ['file', 'camera', 'screen'], uploadWhileRecording: true } : {}),
    onSuccess: (info) => { log('onSuccess', info); showVideo(); },
    onFailure: (info) => log('onFailure', info),
    onError: (info) => log('onError', info),
  };
}

// openUpload runs synchronously inside the click, or the browser's popup blocker refuses the window.
$('popup').addEventListener('click', () => UploadWidget.openUpload(options()));
$('overlay').addEventListener('click', () => UploadABoxWidget.openUpload(options()));
$('register').addEventListener('click', register);
$('status').addEventListener('click', showVideo);

async function showVideo() {
  if (!current) return;
  const res = await fetch('/videos/' + encodeURIComponent(current.videoId));
  $('video').textContent = JSON.stringify(await res.json(), null, 2);
}

async function showCallbacks() {
  const res = await fetch('/callbacks');
  if (!res.ok) return;
  const rows = (await res.json()).map((callback) => {
    const row = document.createElement('tr');
    for (const value of [callback.receivedAt, callback.videoId, callback.videoStatus,
      callback.refusal ? 'REFUSED: ' + callback.refusal : 'valid']) {
      const cell = document.createElement('td');
      cell.textContent = value;
      row.append(cell);
    }
    return row;
  });
  $('callbacks').replaceChildren(...rows);
}
setInterval(showCallbacks, 2000);
showCallbacks();
`;
