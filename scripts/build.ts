/**
 * `npm run build`: every browser file the service serves and the npm module, at fixed names
 * (the service's pages and the script tags in apps refer to them, so no content hashes):
 *   dist/Scripts/UploadWidget/initUploadWidget.js      IIFE, global UploadWidget (popup)
 *   dist/Scripts/UploadWidget/initUploadABoxWidget.js  IIFE, global UploadABoxWidget (overlay)
 *   dist/upload/uploader.js, uploader.css               the upload page's code (ES module)
 *   dist/npm/index.js, dist/npm/types/**                the npm module (ESM + declarations)
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import ts from 'typescript';
import { build, type InlineConfig } from 'vite';

const root = resolve(import.meta.dirname, '..');
const dist = resolve(root, 'dist');

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

const uploaderPage: InlineConfig = {
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

const npmModule: InlineConfig = {
  ...base,
  build: {
    ...base.build,
    outDir: resolve(dist, 'npm'),
    lib: { entry: resolve(root, 'src/widget/index.ts'), formats: ['es'], fileName: () => 'index.js' },
  },
};

/** Declarations for the npm module, from the same sources the bundle came from. */
function emitDeclarations(): void {
  const program = ts.createProgram([resolve(root, 'src/widget/index.ts')], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir: resolve(dist, 'npm/types'),
    rootDir: resolve(root, 'src'),
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    skipLibCheck: true,
    isolatedModules: true,
  });
  const result = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (problems.length > 0) {
    throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  }
}

await rm(dist, { recursive: true, force: true });
// One at a time: the machine is small and the builds are quick.
for (const config of [
  loaderScript('initUploadWidget', 'UploadWidget'),
  loaderScript('initUploadABoxWidget', 'UploadABoxWidget'),
  uploaderPage,
  npmModule,
]) {
  await build(config);
}
emitDeclarations();
console.log('built dist/Scripts/UploadWidget, dist/upload, dist/npm');
