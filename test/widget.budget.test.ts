/**
 * The widget's weight budgets, on the built files (`npm test` builds first): each
 * loader at most 3,000 bytes at gzip -9, and a first overlay open at most 35,000 bytes on the wire:
 * the bodies the service sends a browser that accepts brotli and gzip for the loader, its overlay
 * part (LoaderParts in src/widget/loader/openUpload.ts), the upload page and the page's code and styles, the transport
 * included. bench/size.ts reports the same files in detail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_PATH } from '../src/server/widget/pages';
import { startTestService, type TestService } from './support/service';
import { pageQuery, registerVideo } from './uploadHelpers';

const dist = resolve(import.meta.dirname, '../dist');
const LOADERS = ['initUploadWidget.js', 'initUploadABoxWidget.js'];
const LOADER_BUDGET = 3_000;
const FIRST_OPEN_BUDGET = 35_000;

function built(path: string): Buffer {
  const file = resolve(dist, path);
  if (!existsSync(file)) throw new Error(`dist/${path} is missing: run \`npm run build\` first`);
  return readFileSync(file);
}

describe('loader weight', () => {
  it.each(LOADERS)(`%s is at most ${LOADER_BUDGET} bytes at gzip -9`, (name) => {
    const bytes = gzipSync(built(`Scripts/UploadWidget/${name}`), { level: 9 }).length;
    expect(bytes, `${name}: ${bytes} bytes gzip`).toBeLessThanOrEqual(LOADER_BUDGET);
  });
});

describe('first overlay open', () => {
  let service: TestService;
  beforeAll(async () => {
    built('Scripts/UploadWidget/initUploadABoxWidget.js');
    service = await startTestService();
  });
  afterAll(() => service?.stop(true));

  /** Bytes of the body as sent (Content-Length of the encoded reply; fetch hands back the decoded text). */
  async function wireBytes(path: string): Promise<{ bytes: number; text: string }> {
    const res = await fetch(`${service.address}${path}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(res.status, path).toBe(200);
    const text = await res.text();
    const length = res.headers.get('content-length');
    return { bytes: length === null ? Buffer.byteLength(text) : Number(length), text };
  }

  it(`is at most ${FIRST_OPEN_BUDGET} bytes on the wire`, async () => {
    const page = await wireBytes(`/UploadWidget/Upload?${pageQuery(service, await registerVideo(service))}`);
    const assets = [...page.text.matchAll(new RegExp(`(?:src|href)="${ASSETS_PATH}/([^"]+)"`, 'g'))].map((match) => match[1]!);
    expect(assets.some((name) => name.endsWith('.js')) && assets.some((name) => name.endsWith('.css'))).toBe(true);
    // The transport, which the page's code imports after first paint.
    const manifest = JSON.parse(built('upload/.vite/manifest.json').toString()) as Record<
      string,
      { file: string; src?: string; isDynamicEntry?: boolean }
    >;
    // The languages' text chunks are dynamic too: the page preloads its own (counted with the page's assets), never the others.
    // The restrictions' checks (limits.ts) come only to a page that sets any, which a first open does not;
    // the Record choices only to a page whose `sources` ask for recording, and the recorder
    // only when the person chooses Record.
    const onDemand = ['src/widget/uploader/limits.ts', 'src/widget/uploader/RecordChoice.tsx', 'src/widget/uploader/recorder/index.ts'];
    const transport = Object.values(manifest)
      .filter((chunk) => chunk.isDynamicEntry && !chunk.src?.startsWith('src/shared/i18n/locales/') && !onDemand.includes(chunk.src ?? ''))
      .map((chunk) => chunk.file);
    expect(
      assets.filter((name) => /^en-.*\.js$/.test(name)),
      "the page preloads its language's texts",
    ).toHaveLength(1);
    const paths = [
      '/Scripts/UploadWidget/initUploadABoxWidget.js',
      '/Scripts/UploadWidget/overlay.js',
      // The loader's words in the page's language (English here), which the overlay waits for.
      '/Scripts/UploadWidget/texts-en.js',
      ...[...assets, ...transport].map((name) => `${ASSETS_PATH}/${name}`),
    ];
    const sizes = Object.fromEntries(await Promise.all(paths.map(async (path) => [path, (await wireBytes(path)).bytes] as const)));
    const total = page.bytes + Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
    expect(total, JSON.stringify({ page: page.bytes, ...sizes })).toBeLessThanOrEqual(FIRST_OPEN_BUDGET);
  });
});
