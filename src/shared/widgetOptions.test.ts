import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BaseUploadConfig, ModuleOptions, OverlayOptions, UploadEventHandlers } from './widgetConfig';
import { PAGE_OPTIONS, WIDGET_OPTIONS, type PageOption, type SignedOption, type WidgetOption } from './widgetOptions';
import { LOADER_RULES_FILE, loaderRulesModule } from './loaderRulesSource';
import { decodePageOptions } from './uploadPage';
import { optionsTable, withOptionsTable } from './widgetOptionsDocs';

const docsPage = new URL('../../docs/widget.md', import.meta.url);

type Options = typeof WIDGET_OPTIONS;
type PublicOptions = BaseUploadConfig & OverlayOptions & ModuleOptions;
type RequiredOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The TypeScript type of each kind of value in the table. */
interface KindTypes {
  string: string;
  boolean: boolean;
  number: number;
  list: readonly unknown[];
  object: object;
  function: (info: never) => void;
}
/** Each public option's type, where it is not of the kind the table says: none. */
type WrongKinds = {
  [K in keyof Options]: NonNullable<PublicOptions[K]> extends KindTypes[Options[K]['value']] ? never : K;
}[keyof Options];

describe('the widget options table', () => {
  // The public types keep their words for editors; the table and they must name the same options, alike.
  it('is the options of the public types, required and of the kinds the table says', () => {
    expectTypeOf<keyof Options>().toEqualTypeOf<keyof PublicOptions>();
    expectTypeOf<PageOption>().toEqualTypeOf<Exclude<keyof BaseUploadConfig, keyof UploadEventHandlers>>();
    expectTypeOf<RequiredOf<BaseUploadConfig>>().toEqualTypeOf<
      { [K in keyof Options]: Options[K] extends { required: true } ? K : never }[keyof Options]
    >();
    expectTypeOf<SignedOption>().toEqualTypeOf<'appId' | 'timestamp' | 'token' | 'videoId' | 'uploadType' | 'needHandleSepcial'>();
    expectTypeOf<WrongKinds>().toBeNever();
  });

  it('is the options table in docs/widget.md (npx tsx scripts/widgetOptions.ts rewrites it)', () => {
    const committed = readFileSync(docsPage, 'utf8');
    expect(
      committed === withOptionsTable(committed, optionsTable()),
      'docs/widget.md is out of date with src/shared/widgetOptions.ts: run `npx tsx scripts/widgetOptions.ts` and commit it',
    ).toBe(true);
  });

  it('is the loader’s rules in src/widget/loader/optionRules.ts (npx tsx scripts/widgetOptions.ts rewrites them)', () => {
    expect(
      readFileSync(new URL(`../../${LOADER_RULES_FILE}`, import.meta.url), 'utf8') === loaderRulesModule(),
      `${LOADER_RULES_FILE} is out of date with src/shared/widgetOptions.ts: run \`npx tsx scripts/widgetOptions.ts\` and commit it`,
    ).toBe(true);
  });

  it('gives the service its defaults', () => {
    const decoded = decodePageOptions((name) => (name === 'form' ? 'popup' : undefined));
    expect(decoded).toMatchObject({
      ok: true,
      options: {
        uploadType: WIDGET_OPTIONS.uploadType.default,
        needHandleSepcial: WIDGET_OPTIONS.needHandleSepcial.default,
        look: { theme: WIDGET_OPTIONS.theme.default },
        sources: WIDGET_OPTIONS.sources.default,
        uploadWhileRecording: WIDGET_OPTIONS.uploadWhileRecording.default,
      },
    });
  });

  // The public types' words repeat the defaults for editors; they must say the table's.
  it('has the defaults the public types’ @default tags say', () => {
    const file = new URL('./widgetConfig.ts', import.meta.url);
    const source = ts.createSourceFile(file.pathname, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const said = new Map<string, string>();
    source.forEachChild(function visit(node) {
      if (ts.isPropertySignature(node) && ts.isIdentifier(node.name))
        for (const tag of ts.getJSDocTags(node))
          if (tag.tagName.text === 'default') said.set(node.name.text, ts.getTextOfJSDocComment(tag.comment) ?? '');
      node.forEachChild(visit);
    });
    const rows: [string, WidgetOption][] = Object.entries(WIDGET_OPTIONS);
    const literal = (value: unknown) => JSON.stringify(value).replace(/"/g, "'");
    for (const [name, row] of rows) if (row.default !== undefined) expect(said.get(name)?.split(' ')[0], name).toBe(literal(row.default));
  });

  it('documents every option once, with its type and default', () => {
    const table = optionsTable();
    for (const name of Object.keys(WIDGET_OPTIONS)) expect(table.match(new RegExp(`^\\| \`${name}\` \\|`, 'gm')), name).toHaveLength(1);
    expect(table).toContain("| `uploadType` | `'flash' \\| 'silverlight'` | `'flash'` |");
    expect(table).toContain("| `sources` | `('file' \\| 'camera' \\| 'screen')[]` | `['file']` |");
    expect(table).toContain('| `isTop` | boolean | `true` |');
    expect(table).toContain('| `appId` | string | required |');
  });

  // The loader's first problem must be the service's: the required options come first, as the spec's table has them.
  it('lists the page options in the spec table’s order, the required ones first', () => {
    expect(PAGE_OPTIONS).toEqual([
      'appId',
      'timestamp',
      'token',
      'videoId',
      'uploadType',
      'needHandleSepcial',
      'lang',
      'theme',
      'accentColor',
      'radius',
      'strings',
      'maxFileSize',
      'accept',
      'minDuration',
      'maxDuration',
      'sources',
      'uploadWhileRecording',
    ]);
    const rows: [string, WidgetOption][] = Object.entries(WIDGET_OPTIONS);
    const required = rows.filter(([, row]) => row.required).map(([name]) => name);
    expect(PAGE_OPTIONS.slice(0, required.length)).toEqual(required);
    for (const [name, row] of rows) expect(row.scope === 'page', name).toBe(row.query !== undefined);
  });
});
