/**
 * Size report of the built browser files (run `npm run build` first): raw, gzip and brotli bytes
 * (the copies the build wrote, which the service sends), beside the aims docs/widget.md states
 * (each loader at most 3,000 B gzip -9, the uploader page's code before the transport < 30 KiB
 * gzip), and the brotli bytes of a first overlay open's files (without the page's HTML, which
 * the service renders). The page's hashed names come from the build manifest. A report, not a
 * gate: it marks what is over its aim and does not fail; the budgets themselves are checked by
 * test/widget.budget.test.ts in `npm test`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliBytes, dist, gzipBytes, uploadPageFiles } from '../scripts/widgetSizes';

/** The upload page's files by role. */
function pageFiles(): { file: string; aim?: number; firstOpen?: boolean; role?: string }[] {
  const page = uploadPageFiles();
  return [
    { file: page.code, aim: 30 * 1024, firstOpen: true },
    ...page.styles.map((file) => ({ file, firstOpen: true })),
    ...page.transport.map((file) => ({ file, firstOpen: true })),
    // Only for some pages, or a later step: not in a first open.
    ...page.onDemand,
  ];
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
/** Each loader's budget, gzip -9 (docs/benchmarks.md gives the aim below it). */
const LOADER_AIM = 3_000;
/** A first overlay open on the wire, the page's HTML included (test/widget.budget.test.ts). */
const FIRST_OPEN_AIM = 35_000;

export function sizeReport(): void {
  const files: { file: string; aim?: number; firstOpen?: boolean; role?: string }[] = [
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
  for (const { file, aim, firstOpen: onFirstOpen, role } of files) {
    const gzip = gzipBytes(file);
    const raw = readFileSync(resolve(dist, file));
    const sent = brotliBytes(file);
    if (onFirstOpen) firstOpen += sent ?? raw.length;
    const brotli = sent === undefined ? '-' : kib(sent);
    const aimText = aim === undefined ? (role === undefined ? '' : `(later: ${role})`) : `<= ${aim} B${gzip > aim ? '  (over)' : ''}`;
    console.log(`${file.padEnd(50)}${kib(raw.length).padEnd(12)}${`${kib(gzip)} (${gzip} B)`.padEnd(22)}${brotli.padEnd(12)}${aimText}`);
  }
  console.log(
    `\nfirst overlay open, files as sent (brotli), without the page's HTML: ${firstOpen} B; with the HTML the aim is <= ${FIRST_OPEN_AIM} B`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) sizeReport();
