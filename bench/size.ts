/**
 * Size report of the built browser files (run `npm run build` first): raw, gzip and brotli bytes
 * (the copies the build wrote, which the service sends), beside the aims docs/widget.md states
 * (each loader at most 3,000 B gzip -9, the uploader page's code before the transport < 30 KiB
 * gzip), and the brotli bytes of a first overlay open's files (without the page's HTML, which
 * the service renders). The page's hashed names come from the build manifest. A report, not a
 * gate: it marks what is over its aim and does not fail; the budgets themselves are checked by
 * test/widget.budget.test.ts in `npm test`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  css?: string[];
}

/** The upload page's files by role, from the manifest Vite wrote. */
function pageFiles(): { file: string; aim?: number; firstOpen?: boolean }[] {
  const manifest = resolve(dist, 'upload/.vite/manifest.json');
  if (!existsSync(manifest)) throw new Error('missing dist/upload/.vite/manifest.json: run `npm run build` first');
  const chunks = Object.values(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, ManifestChunk>);
  const entry = chunks.find((chunk) => chunk.isEntry)!;
  return [
    { file: `upload/${entry.file}`, aim: 30 * 1024, firstOpen: true },
    ...(entry.css ?? []).map((css) => ({ file: `upload/${css}`, firstOpen: true })),
    // The languages' texts are dynamic chunks too, of which a page loads only its own (English here).
    ...chunks
      .filter((chunk) => chunk.isDynamicEntry)
      .map((chunk) => ({ file: `upload/${chunk.file}`, firstOpen: !chunk.src?.startsWith('src/shared/i18n/locales/') || chunk.src.endsWith('/en.ts') })),
  ];
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
/** Each loader's budget, gzip -9 (issue 20; aim 1.5 KB). */
const LOADER_AIM = 3_000;
/** A first overlay open on the wire, the page's HTML included (test/widget.budget.test.ts). */
const FIRST_OPEN_AIM = 35_000;

export function sizeReport(): void {
  const files: { file: string; aim?: number; firstOpen?: boolean }[] = [
    { file: 'Scripts/UploadWidget/initUploadWidget.js', aim: LOADER_AIM },
    { file: 'Scripts/UploadWidget/initUploadABoxWidget.js', aim: LOADER_AIM, firstOpen: true },
    // The loaders' parts, imported from the service when needed: the overlay (every overlay open),
    // the loader's words and the error page (a refused configuration).
    { file: 'Scripts/UploadWidget/overlay.js', firstOpen: true },
    // One language's loader words on each open (English in this report).
    { file: 'Scripts/UploadWidget/texts-en.js', firstOpen: true },
    { file: 'Scripts/UploadWidget/errorPage.js' },
    ...pageFiles(),
    { file: 'npm/index.js' },
  ];
  let firstOpen = 0;
  console.log('file                                              raw         gzip                  brotli      aim (gzip -9)');
  for (const { file, aim, firstOpen: onFirstOpen } of files) {
    const path = resolve(dist, file);
    if (!existsSync(path)) throw new Error(`missing dist/${file}: run \`npm run build\` first`);
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 }).length;
    const brotliBytes = existsSync(`${path}.br`) ? statSync(`${path}.br`).size : undefined;
    if (onFirstOpen) firstOpen += brotliBytes ?? raw.length;
    const brotli = brotliBytes === undefined ? '-' : kib(brotliBytes);
    const aimText = aim === undefined ? '' : `<= ${aim} B${gzip > aim ? '  (over)' : ''}`;
    console.log(`${file.padEnd(50)}${kib(raw.length).padEnd(12)}${`${kib(gzip)} (${gzip} B)`.padEnd(22)}${brotli.padEnd(12)}${aimText}`);
  }
  console.log(`\nfirst overlay open, files as sent (brotli), without the page's HTML: ${firstOpen} B; with the HTML the aim is <= ${FIRST_OPEN_AIM} B`);
}

if (import.meta.url === `file://${process.argv[1]}`) sizeReport();
