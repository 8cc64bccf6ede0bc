import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md states the service's rooms and every import that points up a level; this
// holds the code to it, so the page cannot drift from the code, nor the code from the page.
const SERVER = dirname(fileURLToPath(import.meta.url));
const DOC = readFileSync(resolve(SERVER, '../../docs/architecture.md'), 'utf8');

/** The rows of the markdown table that follows `heading`, as cells. */
function tableAfter(heading: string): string[][] {
  const start = DOC.indexOf(heading);
  if (start < 0) throw new Error(`docs/architecture.md has no "${heading}"`);
  const rows: string[][] = [];
  for (const line of DOC.slice(start).split('\n').slice(1)) {
    if (line.startsWith('|'))
      rows.push(
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    else if (rows.length > 0) break;
  }
  return rows.slice(2);
}

const codeNames = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** Each room's files: a folder's name ends in `/`, a file's in `.ts`. */
const rooms = tableAfter('### The rooms in code').map(([rank, name, paths]) => ({
  rank: Number(rank),
  name: name!,
  paths: codeNames(paths!),
}));

function roomOf(file: string) {
  const room = rooms.find(({ paths }) => paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path)));
  if (!room) throw new Error(`src/server/${file} is in no room of docs/architecture.md ("The rooms in code")`);
  return room;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(SERVER, path)] : [];
  });
}

const files = sources(SERVER);

/** `from → to` for every import of a file of ours in a room above the importer's. */
function upwardImports(): string[] {
  return files.flatMap((file) => {
    const from = roomOf(file);
    const targets = [...readFileSync(join(SERVER, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)'/gms)]
      .map((match) => relative(SERVER, resolve(SERVER, dirname(file), match[1]!)) + '.ts')
      .filter((target) => !target.startsWith('..'));
    return targets.filter((target) => roomOf(target).rank > from.rank).map((target) => `${file} → ${target}`);
  });
}

/**
 * Module-level state: a `let`, or an empty Map, Set or WeakMap made at the top of a module (one
 * made with its entries is a lookup table, not state).
 */
function singletons(): string[] {
  return files.flatMap((file) =>
    [
      ...readFileSync(join(SERVER, file), 'utf8').matchAll(
        /^(?:export )?(?:let (\w+)|const (\w+)\s*(?::[^=]+)?= new (?:Weak)?(?:Map|Set)(?:<[^(]*>)?\(\))/gm,
      ),
    ].map((match) => `${file}: ${match[1] ?? match[2]}`),
  );
}

describe('the rooms docs/architecture.md states', () => {
  it('place every file of the service in one room', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) expect(roomOf(file).name).not.toBe('');
  });

  it('list every import that points up a room, and no other', () => {
    const listed = tableAfter('### Imports that point up').map(([from, to]) => `${codeNames(from!)[0]} → ${codeNames(to!)[0]}`);
    expect(upwardImports().sort()).toEqual(listed.sort());
  });

  it('list every module-level singleton, and no other', () => {
    const listed = tableAfter('### Module-level state').map(([where]) => codeNames(where!).join(': '));
    expect(singletons().sort()).toEqual(listed.sort());
  });
});
