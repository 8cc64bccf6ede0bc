import { render } from 'preact';
import { App } from './App';
import { readBoot } from './boot';
import { deferredUpload } from './deferredUpload';
import { fileFingerprint } from './fingerprint';
import { connectToHost } from './hostLink';
import { loadPageTexts } from './pageTexts';
import type { StartUpload } from './uploadCore';
import './styles.css';

const boot = readBoot(document);

// A file dropped beside the drop zone would make the browser open it in place of the uploader.
for (const type of ['dragover', 'drop'] as const) window.addEventListener(type, (event) => event.preventDefault());

const loadTransport = async (): Promise<StartUpload> => {
  const { tusUpload } = await import('./uploadCore');
  return (request, listeners) => tusUpload(request, listeners, { tuning: { chunkBytes: boot.uploadChunkBytes } });
};

// The restrictions' checks and words come only to a page that sets any, before its first paint;
// the Record choices likewise only to a page whose `sources` ask for recording.
const limits = Object.keys(boot.limits).length > 0 ? import('./limits') : undefined;
const recordChoice = boot.sources.some((source) => source !== 'file') ? import('./RecordChoice') : undefined;

void Promise.all([loadPageTexts(boot.lang, boot.strings), limits, recordChoice]).then(([strings, limitChecks, choice]) =>
  render(
    <App
      boot={boot}
      strings={strings}
      limits={limitChecks}
      RecordChoice={choice?.RecordChoice}
      host={connectToHost(boot)}
      startUpload={deferredUpload(loadTransport)}
      fingerprint={fileFingerprint}
    />,
    document.getElementById('app')!,
  ),
);

// After first paint, so the transport is usually there by the time a file is chosen.
requestAnimationFrame(() => setTimeout(() => void loadTransport().catch(() => undefined)));
