/**
 * `npm run build`: every browser file the service serves and the npm module (configurations in
 * vite.config.ts), then the npm module's type declarations in dist/npm/types.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import ts from 'typescript';
import { build } from 'vite';
import { dist, loaderScripts, npmModule, uploaderPage } from '../vite.config';

const root = resolve(import.meta.dirname, '..');

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
for (const config of [...loaderScripts, uploaderPage, npmModule]) {
  await build(config);
}
emitDeclarations();
console.log('built dist/Scripts/UploadWidget, dist/upload, dist/npm');
