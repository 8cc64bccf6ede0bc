import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';

/**
 * A WebM recorded by Chromium's own MediaRecorder from its fake camera and microphone, made at
 * test time: the shape a recording in the uploader has (VP8 + Opus, written as a live stream,
 * so no Duration and no Cues in its header), which no ffmpeg option reproduces exactly.
 * `mimeType` asks for another of its shapes (VP9, or a fragmented MP4 of H.264 and Opus).
 */
export async function recordInChromium(seconds: number, mimeType = 'video/webm;codecs=vp8,opus'): Promise<Buffer> {
  // getUserMedia needs a secure context; http://127.0.0.1 is one, about:blank is not.
  const server = createServer((_req, res) => res.end('<!doctype html><title>recorder</title>'));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const base64 = await page.evaluate(
      async ({ ms, type }) => {
        const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
        const recorder = new MediaRecorder(stream, { mimeType: type });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (event) => chunks.push(event.data);
        recorder.start(1000);
        await new Promise((wake) => setTimeout(wake, ms));
        await new Promise((stopped) => {
          recorder.onstop = stopped;
          recorder.stop();
        });
        stream.getTracks().forEach((track) => track.stop());
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return btoa(text);
      },
      { ms: seconds * 1000, type: mimeType },
    );
    return Buffer.from(base64, 'base64');
  } finally {
    await browser.close();
    server.close();
  }
}
