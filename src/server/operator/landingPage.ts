import { escapeHtml } from '../widget/html';

export interface LandingPageFacts {
  version: string;
  publicUrl: string;
  /** The demo app's address when the service runs under `npm run demo`. */
  demoUrl: string | undefined;
  /** Whether README.md is there to be served at /README.md. */
  readme: boolean;
}

/** README sections an operator or page author opens first (test/readme.test.ts checks they are its headings). */
export const README_SECTIONS = ['Quick start', 'The widget on a page', 'The SDK in ten lines', 'Running the service', 'Documentation'];

/** `GET /`: what answers at this address, for someone who typed it into a browser. Names no path and no secret. */
export function landingPage(facts: LandingPageFacts): string {
  const base = escapeHtml(facts.publicUrl);
  const demo = facts.demoUrl
    ? `<p class="demo">Demo mode: <a href="${escapeHtml(facts.demoUrl)}">open the demo app</a>, a third-party page that uses the widget.</p>`
    : '';
  const docs = facts.readme
    ? `<p>The <a href="/README.md">README</a> explains set-up, use and operation; start with its sections ${README_SECTIONS.map((name) => `“${escapeHtml(name)}”`).join(', ')}.</p>`
    : `<p>See the README's sections ${README_SECTIONS.map((name) => `“${escapeHtml(name)}”`).join(', ')}.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>open-video-upload ${escapeHtml(facts.version)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:0 .2em}.demo{padding:.5rem 1rem;background:#eef6ff}</style>
</head>
<body>
<main>
<h1>open-video-upload</h1>
<p>Version ${escapeHtml(facts.version)}. A video upload service: app backends register videos through its HTTP API, their pages open its upload widget, and it stores, transcodes and reports on the videos.</p>
${demo}
<h2>Upload widget</h2>
<p>Pages load <code>${base}/Scripts/UploadWidget/initUploadWidget.js</code> (popup) or <code>${base}/Scripts/UploadWidget/initUploadABoxWidget.js</code> (overlay) and call <code>openUpload(config)</code>.</p>
<h2>HTTP API</h2>
<p><code>POST /Api/Video/Post</code>, <code>GET /Api/Video/Get</code>, <code>GET /Api/Video/GetUserVideoList</code>, <code>GET /Api/Video/GetUserVideoListByAId</code>, each signed with the app's token.</p>
<h2>Health</h2>
<p><a href="/healthz">/healthz</a> answers while the process runs; <a href="/readyz">/readyz</a> while the database, the storage and ffmpeg work.</p>
<h2>Documentation</h2>
${docs}
</main>
</body>
</html>
`;
}
