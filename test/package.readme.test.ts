/**
 * The packed tarball ships the package's own README, not the service's: at most 150
 * lines, its size figures those of the build it was packed from, links that work on npm (full
 * URLs into the repository, where docs/ lives), and code that compiles against the package.
 * Run `npm run build && npm run pack:widget` first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageReadme } from '../scripts/packageReadme';
import { anchors, codeBlocks, links, READER, snippetFiles, typeCheck } from './support/markdown';

const root = resolve(import.meta.dirname, '..');
const packDir = resolve(root, 'dist/pack');
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { repository: { url: string } };
const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

let shipped: string;

beforeAll(() => {
  const tarballs = existsSync(packDir) ? readdirSync(packDir).filter((name) => name.endsWith('.tgz')) : [];
  if (tarballs.length !== 1) throw new Error('dist/pack holds no single tarball: run `npm run build && npm run pack:widget` first');
  shipped = execFileSync('tar', ['-xzOf', resolve(packDir, tarballs[0]!), 'package/README.md'], { encoding: 'utf8' });
});

describe("the packed package's README.md", () => {
  it('is its own, at most 150 lines, not the service README', () => {
    expect(shipped.split('\n').length).toBeLessThanOrEqual(150);
    expect(shipped).not.toBe(readFileSync(resolve(root, 'README.md'), 'utf8'));
    expect(shipped).not.toMatch(/\{\{\w+\}\}/);
    for (const heading of ['## Install', '## The script tag', '## The module', '## Events and the promise', '## Options', '## The SDK'])
      expect(shipped).toContain(`\n${heading}\n`);
  });

  // Measured again now, from the same build: a figure typed by hand would differ as soon as the widget changes.
  it('states the sizes of the build it was packed from', () => {
    expect(shipped).toBe(packageReadme());
    expect(shipped).toMatch(/loaders are [\d,]+ B \(popup\) and [\d,]+ B\n?\s*\(overlay\) at gzip -9/);
    expect(shipped).toMatch(/A first overlay open fetches [\d,]+ B of code and styles/);
  });

  it('links by full URL into the repository, to pages and headings that exist', () => {
    const broken: string[] = [];
    for (const link of links(shipped)) {
      if (link.startsWith('#')) {
        if (!anchors(shipped).has(link.slice(1))) broken.push(`${link}: no such heading`);
        continue;
      }
      if (!link.startsWith(repository)) {
        broken.push(`${link}: not a full URL into ${repository}`);
        continue;
      }
      const [path = '', anchor] = link
        .slice(repository.length)
        .replace(/^\/blob\/main\//, '')
        .split('#');
      const file = resolve(root, path);
      if (path && !existsSync(file)) broken.push(`${link}: no ${path} in the repository`);
      else if (anchor && !anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${link}: no such heading in ${path}`);
    }
    expect(links(shipped).length).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it('has code that type-checks against the packed package', () => {
    const files = snippetFiles(codeBlocks(shipped));
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);
    expect(typeCheck(files, READER)).toEqual([]);
  }, 60_000);

  it('shows each way in: the script tag, React and the custom element', () => {
    const blocks = codeBlocks(shipped);
    expect(blocks.some((block) => block.lang === 'html' && block.code.includes('/Scripts/UploadWidget/initUploadWidget.js'))).toBe(true);
    const react = blocks.filter((block) => block.lang === 'tsx').map((block) => block.code);
    expect(react.some((code) => code.includes("from 'open-video-upload/react'") && code.includes('<VideoUploadButton'))).toBe(true);
    expect(react.some((code) => code.includes("import 'open-video-upload/element'") && code.includes('<video-upload'))).toBe(true);
  });
});

describe("docs/frameworks.md's React example", () => {
  it('type-checks against the packed package, imports included', () => {
    const page = readFileSync(resolve(root, 'docs/frameworks.md'), 'utf8');
    const files = snippetFiles(codeBlocks(page).filter((block) => block.lang === 'tsx'));
    expect(Object.keys(files)).toHaveLength(1);
    expect(typeCheck(files, READER)).toEqual([]);
  }, 60_000);
});
