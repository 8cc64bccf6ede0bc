// The README's import line, as an app writes it.
import { openUpload, type ModuleUploadConfig, type UploadSuccessInfo } from 'open-video-upload';

/** What the app's backend handed the page (here: in the address's hash, as JSON). */
type BackendConfig = Pick<ModuleUploadConfig, 'appId' | 'timestamp' | 'token' | 'videoId' | 'serviceUrl'>;

type RecordedEvent = { type: 'success' | 'failure' | 'error'; info: unknown };
const recorded: RecordedEvent[] = [];
(window as unknown as { events: RecordedEvent[] }).events = recorded;

function record(type: RecordedEvent['type'], info: unknown): void {
  recorded.push({ type, info });
  const item = document.createElement('li');
  item.textContent = `${type}: ${JSON.stringify(info)}`;
  document.getElementById('events')!.append(item);
}

const config = JSON.parse(decodeURIComponent(location.hash.slice(1))) as BackendConfig;

document.getElementById('open')!.addEventListener('click', () => {
  const widget = openUpload({
    ...config,
    form: 'overlay',
    onSuccess: (info: UploadSuccessInfo) => {
      record('success', info);
      widget.close();
    },
    onFailure: (info) => record('failure', info),
    onError: (info) => record('error', info),
  });
});
