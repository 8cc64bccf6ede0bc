import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageDir = resolve(import.meta.dirname, '../dist/package');

/** The names a module exports as values (not types only), read by the TypeScript checker from a .d.ts or a .js file. */
function valueExports(file: string): string[] {
  const program = ts.createProgram([file], { allowJs: true, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${file} is not a module`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.name)
    .sort();
}

// A value the types promise but the JS lacks type-checks in an app and then fails its bundler
// (Vite: MISSING_EXPORT); attw and publint do not look for it.
describe.each(['index', 'sdk', 'react', 'element'])('the packed %s entry', (name) => {
  it('declares as values exactly what its JS exports', () => {
    const declarations = resolve(packageDir, `${name}.d.ts`);
    if (!existsSync(declarations)) throw new Error(`${declarations} is missing: run npm run pack:widget first`);
    const declared = valueExports(declarations);
    expect(declared.length).toBeGreaterThan(0);
    expect(valueExports(resolve(packageDir, `${name}.js`))).toEqual(declared);
  });
});
