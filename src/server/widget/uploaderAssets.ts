import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WidgetLanguage } from '../../shared/widgetConfig';

/** The upload page's built files, by their content-hashed names under ASSETS_PATH. */
export interface UploaderAssets {
  script: string;
  styles: string[];
  /** Each language's texts chunk (src/widget/uploader/pageTexts.ts), preloaded by the page that speaks it. */
  locales: Partial<Record<WidgetLanguage, string>>;
  /** The restrictions' checks (src/widget/uploader/limits.ts), preloaded by a page that sets any. */
  limits?: string | undefined;
}

/** What the page refers to before a build exists: those names answer 404 with the build hint. */
const UNBUILT: UploaderAssets = { script: 'uploader.js', styles: ['uploader.css'], locales: {} };

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  css?: string[];
}

/** Where the restrictions' checks come from. */
const LIMITS_SOURCE = 'src/widget/uploader/limits.ts';

/** Where a language's texts chunk comes from, named by its language. */
const LOCALE_SOURCE = /^src\/shared\/i18n\/locales\/([\w-]+)\.ts$/;

/**
 * The names Vite gave the upload page's entry and its CSS, from `<dist>/upload/.vite/manifest.json`,
 * read again whenever the file changes (a rebuild while the service runs is picked up).
 */
export function uploaderAssetsReader(distDir: string): () => UploaderAssets {
  const path = join(distDir, 'upload', '.vite', 'manifest.json');
  let cached: { mtimeMs: number; assets: UploaderAssets } | undefined;
  return () => {
    const mtimeMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return UNBUILT;
    if (cached?.mtimeMs !== mtimeMs) {
      const chunks = Object.values(JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestChunk>);
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error(`${path} names no entry: rebuild with \`npm run build\``);
      const locales = Object.fromEntries(
        chunks.flatMap((chunk) => (LOCALE_SOURCE.exec(chunk.src ?? '') ? [[LOCALE_SOURCE.exec(chunk.src!)![1], chunk.file]] : [])),
      );
      const limits = chunks.find((chunk) => chunk.src === LIMITS_SOURCE)?.file;
      cached = { mtimeMs, assets: { script: entry.file, styles: entry.css ?? [], locales, ...(limits ? { limits } : {}) } };
    }
    return cached.assets;
  };
}
