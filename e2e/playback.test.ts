import { playbackSuite } from '../engines/support/playbackSuite';
import { launchBrowser } from './support/browser';

// engines/playback.test.ts plays the same matrix in Firefox ESR and WebKitGTK.
playbackSuite([
  {
    name: 'Chromium',
    async launch() {
      const browser = await launchBrowser();
      const page = await browser.newPage();
      return {
        open: async (url) => void (await page.goto(url)),
        evaluate: async <T>(expression: string) => (await page.evaluate(expression)) as T,
        quit: () => browser.close(),
      };
    },
    countsFrames: true,
  },
]);
