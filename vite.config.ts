/**
 * The widget's builds, one Vite configuration each:
 *   dist/Scripts/UploadWidget/initUploadWidget.js      IIFE, global UploadWidget (popup)
 *   dist/Scripts/UploadWidget/initUploadABoxWidget.js  IIFE, global UploadABoxWidget (overlay)
 *     (fixed names: script tags in apps refer to them)
 *   dist/upload/uploader-<hash>.js, .css, uploadCore-<hash>.js
 *     the upload page's code (ES modules), content-hashed; .vite/manifest.json names them
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
  // Asset URLs relative to the chunk that names them: the service serves the files under its own path.
  base: './',
  // tus-js-client's url-parse and js-base64, from the browser (src/widget/uploader/tusPlatform.ts says why).
  resolve: {
    alias: {
      'url-parse': resolve(root, 'src/widget/uploader/tusPlatform.ts'),
      'js-base64': resolve(root, 'src/widget/uploader/tusPlatform.ts'),
    },
  },
  build: {
    ...base.build,
    outDir: resolve(dist, 'upload'),
    // The page's CSS is listed under its entry in the manifest.
    cssCodeSplit: true,
    modulePreload: false,
    // Files beside the code, never data: URLs, which the page's CSP (`style-src 'self'`) refuses
    // (the recorder's CSS, recorder/index.ts).
    assetsInlineLimit: 0,
    // The service reads the hashed names from here (src/server/widget/uploaderAssets.ts).
    manifest: true,
    rollupOptions: {
      input: resolve(root, 'src/widget/uploader/main.tsx'),
      // Content-hashed names, served as immutable; the transport (tus-js-client) is its own chunk,
      // loaded after first paint so the file input does not wait for it.
      output: {
        format: 'es',
        entryFileNames: 'uploader-[hash].js',
        chunkFileNames: '[name]-[hash].js',
        assetFileNames: 'uploader-[hash][extname]',
      },
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

/** @alias plain `vite build` reads the default export */
export default uploaderPage;
