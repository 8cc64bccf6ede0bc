/**
 * What the README tests read in a Markdown page: its fenced code blocks, its links and its
 * headings' anchors (as GitHub makes them), and a type check of TypeScript snippets against the
 * packed package (dist/package), as an app that installed it would compile them.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');

export interface CodeBlock {
  /** The fence's info string: `ts`, `sh`, `html`, `json`, or empty. */
  lang: string;
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

const FENCE = /^```(\S*)\s*$/;

/** Every fenced code block, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    while (++index < lines.length && lines[index] !== '```') body.push(lines[index]!);
    blocks.push({ lang: open[1]!, code: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}

/** The page without its fenced code blocks (a `#` line in a shell block is no heading). */
function withoutBlocks(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of the page's headings, numbered as GitHub does when two are alike. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, text] of withoutBlocks(markdown).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const base = slug(text!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every link target: Markdown `[text](target)` and HTML `src="…"` / `href="…"`, outside code. */
export function links(markdown: string): string[] {
  const text = withoutBlocks(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
}

/** The names a README snippet leaves to the reader's own app, and the script tags' globals. */
export const READER = `
declare const appId: string, timestamp: string, token: string, videoId: string;
declare const button: HTMLButtonElement;
declare const bar: HTMLProgressElement;
declare function show(code: string | undefined, message: string): void;
declare const rawBody: string;
declare const req: import('node:http').IncomingMessage;
declare const UploadWidget: { openUpload(config: import('open-video-upload').PopupUploadConfig): import('open-video-upload').UploadWidgetHandle };
declare const UploadABoxWidget: { openUpload(config: import('open-video-upload').OverlayUploadConfig): import('open-video-upload').UploadWidgetHandle };
`;

/** The inline scripts of an HTML block (those without `src`), and the `src` of the others. */
export function scriptsOf(html: string): { inline: string[]; sources: string[] } {
  const inline: string[] = [];
  const sources: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = /\bsrc="([^"]+)"/.exec(attributes!)?.[1];
    if (src) sources.push(src);
    else inline.push(body!);
  }
  return { inline, sources };
}

/** The TypeScript blocks (`tsx` ones as React code) and the HTML blocks' inline scripts, one module each, named by their line. */
export function snippetFiles(blocks: readonly CodeBlock[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const block of blocks) {
    if (block.lang === 'ts' || block.lang === 'tsx') files[`line-${block.line}.${block.lang}`] = block.code;
    if (block.lang === 'html')
      for (const [index, script] of scriptsOf(block.code).inline.entries())
        files[`line-${block.line}-script-${index}.ts`] = `${script}\nexport {};\n`;
  }
  return files;
}

/**
 * Type-checks TypeScript files as an app that installed the package would: `open-video-upload`
 * resolves to dist/package through node_modules, with DOM and Node types, strict. `ambient` is a
 * global declaration file for the names a snippet leaves to the reader. Returns the diagnostics,
 * one line each (empty when all compile).
 */
export function typeCheck(files: Record<string, string>, ambient: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ovu-readme-'));
  try {
    mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
    symlinkSync(resolve(root, 'dist/package'), join(dir, 'node_modules/open-video-upload'), 'dir');
    // React's types, for `tsx` snippets: an app using open-video-upload/react has them.
    symlinkSync(resolve(root, 'node_modules/react'), join(dir, 'node_modules/react'), 'dir');
    symlinkSync(resolve(root, 'node_modules/@types/react'), join(dir, 'node_modules/@types/react'), 'dir');
    writeFileSync(join(dir, 'reader.d.ts'), ambient);
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
    const program = ts.createProgram([join(dir, 'reader.d.ts'), ...Object.keys(files).map((name) => join(dir, name))], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['node'],
      typeRoots: [resolve(root, 'node_modules/@types')],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where =
        diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      const file = diagnostic.file ? diagnostic.file.fileName.slice(dir.length + 1) : '';
      return `${file}${where ? `:${where.line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
