/**
 * Size report of the built browser files (run `npm run build` first): raw and gzip bytes, against
 * the budgets the README states (loader < 3 KB gzip, uploader page code < 30 KB gzip).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');

const FILES: { file: string; budget?: number }[] = [
  { file: 'Scripts/UploadWidget/initUploadWidget.js', budget: 3 * 1024 },
  { file: 'Scripts/UploadWidget/initUploadABoxWidget.js', budget: 3 * 1024 },
  { file: 'upload/uploader.js', budget: 30 * 1024 },
  { file: 'upload/uploader.css' },
  { file: 'npm/index.js' },
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

export function sizeReport(): boolean {
  let withinBudget = true;
  console.log('file                                              raw         gzip        budget');
  for (const { file, budget } of FILES) {
    const path = resolve(dist, file);
    if (!existsSync(path)) throw new Error(`missing dist/${file}: run \`npm run build\` first`);
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 }).length;
    const over = budget !== undefined && gzip > budget;
    if (over) withinBudget = false;
    const budgetText = budget === undefined ? '' : `${over ? 'OVER ' : ''}< ${kb(budget)}`;
    console.log(`${file.padEnd(50)}${kb(raw.length).padEnd(12)}${kb(gzip).padEnd(12)}${budgetText}`);
  }
  return withinBudget;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!sizeReport()) process.exitCode = 1;
}
