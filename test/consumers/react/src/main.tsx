// The README's React example, as an app writes it.
import { createRoot } from 'react-dom/client';
import type { ModuleUploadConfig } from 'open-video-upload';
import { VideoUploadButton, type VideoUpload } from 'open-video-upload/react';

/** What the app's backend handed the page (here: in the address's hash, as JSON). */
type BackendConfig = Pick<ModuleUploadConfig, 'appId' | 'timestamp' | 'token' | 'videoId' | 'serviceUrl'>;

type RecordedEvent = { type: 'success' | 'failure' | 'error'; info: unknown };
const recorded: RecordedEvent[] = [];
(window as unknown as { events: RecordedEvent[] }).events = recorded;
const record = (type: RecordedEvent['type']) => (info: unknown) => void recorded.push({ type, info });

const config = JSON.parse(decodeURIComponent(location.hash.slice(1))) as BackendConfig;

function label(upload: VideoUpload): string {
  if (upload.state === 'progress' && upload.progress)
    return `Uploading ${Math.floor((100 * upload.progress.bytesUploaded) / upload.progress.bytesTotal)}%`;
  if (upload.state === 'done') return `Uploaded ${upload.result?.fileName}`;
  if (upload.state === 'open') return 'Uploader open';
  return 'Open upload';
}

function App() {
  return (
    <VideoUploadButton
      options={{ ...config, form: 'overlay', onSuccess: record('success'), onFailure: record('failure'), onError: record('error') }}
    >
      {label}
    </VideoUploadButton>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
