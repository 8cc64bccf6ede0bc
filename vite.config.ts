/**
 * The widget's builds, one Vite configuration each, at fixed names (the service's pages and the
 * script tags in apps refer to them, so no content hashes):
 *   dist/Scripts/UploadWidget/initUploadWidget.js      IIFE, global UploadWidget (popup)
 *   dist/Scripts/UploadWidget/initUploadABoxWidget.js  IIFE, global UploadABoxWidget (overlay)
 *   dist/upload/uploader.js, uploader.css               the upload page's code (ES module)
 *   dist/npm/index.js                                   the npm module (ESM)
 * IIFE and ESM outputs cannot share one Vite build, so `npm run build` (scripts/build.ts) runs
 * them all; a plain `vite build` builds the upload page alone.
 */
import { resolve } from 'node:path';
import type { InlineConfig } from 'vite';

const root = import.meta.dirname;
export const dist = resolve(root, 'dist');

const base: InlineConfig = {
  configFile: false,
  root,
  logLevel: 'warn',
  // The uploader is written with Preact's automatic JSX runtime (tsconfig says so too).
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { emptyOutDir: false, reportCompressedSize: false },
};

function loaderScript(entry: string, globalName: string): InlineConfig {
  return {
    ...base,
    // Chinese text as \u escapes: smaller once gzipped than UTF-8, and the script then reads the
    // same whatever charset a host page loads it with.
    esbuild: { ...base.esbuild, charset: 'ascii' },
    build: {
      ...base.build,
      outDir: resolve(dist, 'Scripts/UploadWidget'),
      lib: { entry: resolve(root, `src/widget/loader/${entry}.ts`), name: globalName, formats: ['iife'], fileName: () => `${entry}.js` },
      rollupOptions: {
        output: {
          // No Symbol.toStringTag on the global and no "use strict" prologue: bytes the loader's
          // budget cannot spare. The sources are strict TypeScript; nothing in them depends on
          // strict mode at run time (no `this` in functions, no `arguments`, no writes to
          // read-only properties).
          generatedCode: { symbols: false },
          strict: false,
        },
      },
    },
  };
}

export const uploaderPage: InlineConfig = {
  ...base,
  build: {
    ...base.build,
    outDir: resolve(dist, 'upload'),
    cssCodeSplit: false,
    modulePreload: false,
    rollupOptions: {
      input: resolve(root, 'src/widget/uploader/main.tsx'),
      output: { format: 'es', entryFileNames: 'uploader.js', assetFileNames: 'uploader[extname]', inlineDynamicImports: true },
    },
  },
};

export const npmModule: InlineConfig = {
  ...base,
  build: {
    ...base.build,
    outDir: resolve(dist, 'npm'),
    lib: { entry: resolve(root, 'src/widget/index.ts'), formats: ['es'], fileName: () => 'index.js' },
  },
};

export const loaderScripts: InlineConfig[] = [
  loaderScript('initUploadWidget', 'UploadWidget'),
  loaderScript('initUploadABoxWidget', 'UploadABoxWidget'),
];

export default uploaderPage;
