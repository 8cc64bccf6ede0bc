/**
 * The README is the front door: at most 250 lines, in a fixed order, and every code
 * block in it is compiled or run here. TypeScript and the pages' inline scripts type-check against
 * the packed package (run `npm run build && npm run pack:widget` first), the APPS_FILE example
 * passes the service's own parser, and each shell command names a real npm script, CLI command,
 * setting or file. Every relative link of the README and of docs/ reaches a file and, with an
 * anchor, a heading there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseApps } from '../src/server/auth/apps';
import { appsCommands } from '../src/server/cli/appsCommands';
import { dataCommands } from '../src/server/cli/dataCommands';
import { doctorCommand } from '../src/server/cli/doctor';
import { SETTINGS } from '../src/server/configSchema';
import { README_SECTIONS } from '../src/server/operator/landingPage';
import { anchors, codeBlocks, links, READER, scriptsOf, snippetFiles, typeCheck, type CodeBlock } from './support/markdown';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const blocks = codeBlocks(readme);
const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const CLI_COMMANDS = [...appsCommands, ...dataCommands, doctorCommand];

/** What is wrong with one shell command of the README (empty when it names only real things). */
function shellProblems(command: string): string[] {
  const words = command.trim().split(/\s+/).filter(Boolean);
  const given = new Set<string>();
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const name = words.shift()!.split('=')[0]!;
    if (!(name in SETTINGS)) return [`${name} is not a setting of src/server/configSchema.ts`];
    given.add(name);
  }
  const [program, first, second] = words;
  if (program === 'npm') {
    if (first === 'run') return second && second in scripts ? [] : [`npm run ${second}: no such script in package.json`];
    if (first === 'install' || first === 'ci') return [];
    return first && first in scripts ? [] : [`npm ${first}: no such script in package.json`];
  }
  if (program === 'npx' && first === 'open-video-upload') {
    const found = CLI_COMMANDS.find((cli) => cli.name.split(' ').every((word, index) => words[2 + index] === word));
    if (!found) return [`npx open-video-upload ${words.slice(2).join(' ')}: no such command`];
    // Copied as printed, an apps command without APPS_FILE only says that it is not set.
    if (found.name.startsWith('apps ') && !given.has('APPS_FILE')) return [`${found.name}: shown without the APPS_FILE it needs`];
    const flags = words.filter((word) => word.startsWith('--')).map((flag) => flag.slice(2));
    return flags.filter((flag) => !(flag in (found.options ?? {}))).map((flag) => `${found.name}: no option --${flag}`);
  }
  if (program === 'docker' && first === 'compose') return existsSync(resolve(root, 'compose.yaml')) ? [] : ['compose.yaml is missing'];
  if (program && program.includes('/')) return existsSync(resolve(root, program)) ? [] : [`${program} is missing`];
  return [`unknown program in "${command.trim()}"`];
}

function blocksOf(lang: string): CodeBlock[] {
  return blocks.filter((block) => block.lang === lang);
}

describe('README.md', () => {
  it('fits the front door: at most 250 lines, a screenshot first, then the sections in order', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    // The landing page (GET /) names these sections to whoever opens the service's address.
    expect(headings).toEqual([...README_SECTIONS]);
    const screenshot = /<img src="(docs\/screenshots\/[^"]+\.png)"/.exec(readme);
    expect(screenshot?.index).toBeLessThan(readme.indexOf('## Quick start'));
    expect(existsSync(resolve(root, screenshot![1]!))).toBe(true);
  });

  it('links every topic the issue names into docs/', () => {
    const targets = links(readme).map((link) => link.split('#')[0]);
    for (const page of ['configuration', 'api', 'processing', 'scaling', 'security', 'production', 'operations', 'testing', 'benchmarks'])
      expect(targets, page).toContain(`docs/${page}.md`);
  });

  it('shows the SDK in at most ten lines', () => {
    const section = readme.slice(readme.indexOf('## The SDK in ten lines'), readme.indexOf('## Running the service'));
    const [sdk] = codeBlocks(section);
    expect(sdk?.lang).toBe('ts');
    expect(sdk!.code.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(10);
  });

  it('has only code blocks this test compiles or runs', () => {
    expect(blocks.map((block) => block.lang).filter((lang) => !['ts', 'html', 'json', 'sh'].includes(lang))).toEqual([]);
  });

  it('has TypeScript and page scripts that type-check against the packed package', () => {
    if (!existsSync(resolve(root, 'dist/package/index.d.ts')))
      throw new Error('dist/package is missing: run `npm run build && npm run pack:widget` first');
    const files = snippetFiles(blocks);
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
    expect(typeCheck(files, READER)).toEqual([]);
  }, 60_000);

  it('loads the script tags the built loaders answer to, and they define the globals it calls', () => {
    for (const block of blocksOf('html')) {
      const { inline, sources } = scriptsOf(block.code);
      for (const src of sources) {
        const path = new URL(src).pathname;
        const built = resolve(root, 'dist', path.slice(1));
        if (!existsSync(built)) throw new Error(`dist${path} is missing: run \`npm run build\` first`);
        // The loader as a browser runs it: it reads its own URL to find the service.
        const context: Record<string, unknown> = { URL, document: { currentScript: { src } } };
        runInNewContext(readFileSync(built, 'utf8'), context);
        for (const global of inline.flatMap((script) =>
          [...script.matchAll(/\b(Upload\w*Widget)\.openUpload\(/g)].map((match) => match[1]!),
        ))
          expect(typeof (context[global] as { openUpload?: unknown } | undefined)?.openUpload, `${global} from ${path}`).toBe('function');
      }
    }
  });

  it('has an APPS_FILE example the service accepts', () => {
    const [example] = blocksOf('json');
    expect(example).toBeDefined();
    expect(parseApps(JSON.parse(example!.code)).map((app) => app.appId)).toEqual(['shop']);
  });

  it('has shell commands that name real npm scripts, CLI commands, settings and files', () => {
    const problems: string[] = [];
    for (const block of blocksOf('sh')) {
      for (const line of block.code.replace(/\\\n/g, ' ').split('\n')) {
        const [command, comment = ''] = line.split(/\s#\s/, 2);
        for (const part of (command ?? '').split(/&&|\|\||\||;/)) if (part.trim()) problems.push(...shellProblems(part));
        // Files a comment points to (`or: scripts/production-install.sh DIR`, `(Dockerfile, compose.yaml)`).
        for (const [file] of comment.matchAll(/\b(?:scripts|src|docs|demo)\/[\w./-]+\.\w+|\bDockerfile\b|\bcompose\.yaml\b/g))
          if (!existsSync(resolve(root, file))) problems.push(`${file} (in a comment) is missing`);
      }
    }
    expect(blocksOf('sh').length).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  });
});

describe('links in README.md and docs/', () => {
  const pages = [
    'README.md',
    ...readdirSync(resolve(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = readFileSync(resolve(root, page), 'utf8');
    const broken: string[] = [];
    for (const link of links(text)) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [path, anchor] = link.split('#');
      const target = path ? resolve(root, dirname(page), path) : resolve(root, page);
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
