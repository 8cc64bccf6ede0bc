import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_OPTIONS, WIDGET_OPTIONS, type WidgetOption } from './widgetOptions';
import { LOADER_RULES_FILE, loaderRulesModule } from './loaderRulesSource';
import { decodePageOptions } from './uploadPage';
import { optionsTable, withOptionsTable } from './widgetOptionsDocs';

const docsPage = new URL('../../docs/widget.md', import.meta.url);

describe('the widget options table', () => {
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
