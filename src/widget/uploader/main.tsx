import { render } from 'preact';
import { App } from './App';
import { readBoot } from './boot';
import { fileFingerprint } from './fingerprint';
import { connectToHost } from './hostLink';
import { tusUpload } from './uploadCore';
import './styles.css';

const boot = readBoot(document);

// A file dropped beside the drop zone would make the browser open it in place of the uploader.
for (const type of ['dragover', 'drop'] as const) window.addEventListener(type, (event) => event.preventDefault());

render(
  <App
    boot={boot}
    host={connectToHost(boot)}
    startUpload={tusUpload}
    fingerprint={fileFingerprint}
  />,
  document.getElementById('app')!,
);
