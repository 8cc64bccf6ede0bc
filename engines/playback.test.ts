import { launchFirefox } from './support/firefox';
import { playbackSuite } from './support/playbackSuite';
import { launchWebKit } from './support/webkit';

// e2e/playback.test.ts plays the same matrix in Chromium.
playbackSuite([
  { name: 'Firefox ESR', launch: launchFirefox, countsFrames: true },
  { name: 'WebKitGTK', launch: launchWebKit, countsFrames: false },
]);
