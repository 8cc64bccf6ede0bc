// Importing the module defines <video-upload>; the page gives it the signed values.
import 'open-video-upload/element';
import type { ModuleUploadConfig } from 'open-video-upload';

/** What the app's backend handed the page (here: in the address's hash, as JSON). */
type BackendConfig = Pick<ModuleUploadConfig, 'appId' | 'timestamp' | 'token' | 'videoId' | 'serviceUrl'>;

type RecordedEvent = { type: 'success' | 'failure' | 'error'; info: unknown };
const recorded: RecordedEvent[] = [];
(window as unknown as { events: RecordedEvent[] }).events = recorded;

const config = JSON.parse(decodeURIComponent(location.hash.slice(1))) as BackendConfig;
const element = document.querySelector('video-upload')!;
element.setAttribute('service-url', config.serviceUrl);
element.setAttribute('app-id', config.appId);
element.setAttribute('timestamp', config.timestamp);
element.setAttribute('token', config.token);
element.setAttribute('video-id', config.videoId);

// The events are typed: `detail` is the info the matching handler gets.
element.addEventListener('success', (event) => recorded.push({ type: 'success', info: event.detail }));
element.addEventListener('failure', (event) => recorded.push({ type: 'failure', info: event.detail }));
element.addEventListener('error', (event) => recorded.push({ type: 'error', info: event.detail }));
