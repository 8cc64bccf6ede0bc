/**
 * Size report of the built browser files (run `npm run build` first): raw and gzip bytes, beside
 * the aims the README states (loader < 3 KB gzip, uploader page code < 30 KB gzip). A report, not
 * a gate: it marks what is over its aim and does not fail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');

const FILES: { file: string; aim?: number }[] = [
  { file: 'Scripts/UploadWidget/initUploadWidget.js', aim: 3 * 1024 },
  { file: 'Scripts/UploadWidget/initUploadABoxWidget.js', aim: 3 * 1024 },
  { file: 'upload/uploader.js', aim: 30 * 1024 },
  { file: 'upload/uploader.css' },
  { file: 'npm/index.js' },
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

export function sizeReport(): void {
  console.log('file                                              raw         gzip        aim (gzip)');
  for (const { file, aim } of FILES) {
    const path = resolve(dist, file);
    if (!existsSync(path)) throw new Error(`missing dist/${file}: run \`npm run build\` first`);
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 }).length;
    const aimText = aim === undefined ? '' : `< ${kb(aim)}${gzip > aim ? '  (over)' : ''}`;
    console.log(`${file.padEnd(50)}${kb(raw.length).padEnd(12)}${kb(gzip).padEnd(12)}${aimText}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) sizeReport();
