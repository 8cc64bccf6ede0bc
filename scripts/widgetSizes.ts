/**
 * The widget's files and their sizes as the build wrote them (`npm run build`), read one way for
 * the size report (bench/size.ts) and the package README's figures (scripts/packageReadme.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const dist = resolve(import.meta.dirname, '../dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  css?: string[];
  assets?: string[];
}

/**
 * The chunks a first open does not fetch, each with what it is for: the restrictions' checks,
 * only for a page that sets any; the Record choices, only for a page whose `sources` ask for
 * recording; the recorder, once Record is chosen.
 */
const ON_DEMAND: Record<string, string> = {
  'src/widget/uploader/limits.ts': "the restrictions' checks",
  'src/widget/uploader/RecordChoice.tsx': 'the Record choices',
  'src/widget/uploader/recorder/index.ts': 'the recorder',
};

/**
 * The upload page's files (under dist/), from the manifest Vite wrote: its code, styles, and the
 * chunks it imports: the transport after first paint, and its language's texts, of which a page
 * loads only its own (English here); apart, the chunks only some pages or a later step load, with
 * the styles they bring.
 */
export function uploadPageFiles(): { code: string; styles: string[]; transport: string[]; onDemand: { file: string; role: string }[] } {
  const manifest = resolve(dist, 'upload/.vite/manifest.json');
  if (!existsSync(manifest)) throw new Error('missing dist/upload/.vite/manifest.json: run `npm run build` first');
  const chunks = Object.values(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, ManifestChunk>);
  const entry = chunks.find((chunk) => chunk.isEntry)!;
  const roleOf = (chunk: ManifestChunk) => (chunk.src === undefined ? undefined : ON_DEMAND[chunk.src]);
  return {
    code: `upload/${entry.file}`,
    styles: (entry.css ?? []).map((css) => `upload/${css}`),
    transport: chunks
      .filter(
        (chunk) =>
          chunk.isDynamicEntry &&
          roleOf(chunk) === undefined &&
          (!chunk.src?.startsWith('src/shared/i18n/locales/') || chunk.src.endsWith('/en.ts')),
      )
      .map((chunk) => `upload/${chunk.file}`),
    onDemand: chunks.flatMap((chunk) => {
      const role = roleOf(chunk);
      if (role === undefined) return [];
      return [chunk.file, ...(chunk.assets ?? [])].map((file) => ({ file: `upload/${file}`, role }));
    }),
  };
}

/** The files a first overlay open fetches besides the page's HTML (which the service renders). */
export function firstOverlayOpenFiles(): string[] {
  const page = uploadPageFiles();
  return [
    'Scripts/UploadWidget/initUploadABoxWidget.js',
    'Scripts/UploadWidget/overlay.js',
    'Scripts/UploadWidget/texts-en.js',
    page.code,
    ...page.styles,
    ...page.transport,
  ];
}

function built(file: string): string {
  const path = resolve(dist, file);
  if (!existsSync(path)) throw new Error(`missing dist/${file}: run \`npm run build\` first`);
  return path;
}

/** Bytes at gzip -9, the level the loaders' budget is stated at. */
export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(built(file)), { level: 9 }).length;
}

/** Bytes of the build's brotli copy, which the service sends to browsers that accept it; undefined without one. */
export function brotliBytes(file: string): number | undefined {
  const copy = `${built(file)}.br`;
  return existsSync(copy) ? statSync(copy).size : undefined;
}
