/**
 * Size report of the built browser files (run `npm run build` first): raw, gzip and brotli bytes
 * (the copies the build wrote, which the service sends), beside the aims the README states
 * (loader < 3.5 KiB gzip, the uploader page's code before the transport < 30 KiB gzip). The page's
 * hashed names come from the build manifest. A report, not a gate: it marks what is over its aim
 * and does not fail.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  css?: string[];
}

/** The upload page's files by role, from the manifest Vite wrote. */
function pageFiles(): { file: string; aim?: number }[] {
  const manifest = resolve(dist, 'upload/.vite/manifest.json');
  if (!existsSync(manifest)) throw new Error('missing dist/upload/.vite/manifest.json: run `npm run build` first');
  const chunks = Object.values(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, ManifestChunk>);
  const entry = chunks.find((chunk) => chunk.isEntry)!;
  return [
    { file: `upload/${entry.file}`, aim: 30 * 1024 },
    ...(entry.css ?? []).map((css) => ({ file: `upload/${css}` })),
    ...chunks.filter((chunk) => chunk.isDynamicEntry).map((chunk) => ({ file: `upload/${chunk.file}` })),
  ];
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;

export function sizeReport(): void {
  const files = [
    { file: 'Scripts/UploadWidget/initUploadWidget.js', aim: 3.5 * 1024 },
    { file: 'Scripts/UploadWidget/initUploadABoxWidget.js', aim: 3.5 * 1024 },
    ...pageFiles(),
    { file: 'npm/index.js' },
  ];
  console.log('file                                              raw         gzip        brotli      aim (gzip)');
  for (const { file, aim } of files) {
    const path = resolve(dist, file);
    if (!existsSync(path)) throw new Error(`missing dist/${file}: run \`npm run build\` first`);
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 }).length;
    const brotli = existsSync(`${path}.br`) ? kib(statSync(`${path}.br`).size) : '-';
    const aimText = aim === undefined ? '' : `< ${kib(aim)}${gzip > aim ? '  (over)' : ''}`;
    console.log(`${file.padEnd(50)}${kib(raw.length).padEnd(12)}${kib(gzip).padEnd(12)}${brotli.padEnd(12)}${aimText}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) sizeReport();
