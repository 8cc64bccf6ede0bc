import * as widgetConfig from './widgetConfig';
import { WIDGET_OPTIONS, type WidgetOption } from './widgetOptions';

/** Where scripts/widgetOptions.ts writes the loader's rules, from the project folder. */
export const LOADER_RULES_FILE = 'src/widget/loader/optionRules.ts';

type Row = [name: string, row: WidgetOption];

const NAMED_CHECKS = { text: 'STRING', flag: 'BOOLEAN', json: 'SERVICE_CHECKS', length: 'LENGTH' } as const;

/** The rule's expression in the loader: a list is one of widgetConfig.ts's, named as there so the bundle has it once. */
function ruleOf([name, { loader }]: Row, lists: Set<string>): string {
  if (typeof loader === 'string') {
    if (loader === 'function') throw new Error(`${name}: a handler has no rule`);
    return NAMED_CHECKS[loader];
  }
  const list = Object.entries(widgetConfig).find(([, value]) => value === loader)?.[0];
  if (!list) throw new Error(`${name}: its loader list must be one that widgetConfig.ts exports`);
  lists.add(list);
  // Pure, so a build that does not use the rule drops the call and the list.
  return `/* @__PURE__ */ oneOf(${list})`;
}

const rulesObject = (rows: Row[], lists: Set<string>): string =>
  `{\n${rows.map((row) => `  ${row[0]}: ${ruleOf(row, lists)},\n`).join('')}}`;

const literal = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : `${String(value)}`);

const names = (rows: Row[]): string => `[${rows.map(([name]) => `'${name}'`).join(', ')}]`;

/**
 * src/widget/loader/optionRules.ts: what the loaders need of the table, as code, so that they
 * carry no words of the docs. The same table always gives the same text, so a test can compare it
 * with the committed file.
 */
export function loaderRulesModule(): string {
  const rows: Row[] = Object.entries(WIDGET_OPTIONS);
  const of = (scope: WidgetOption['scope']) => rows.filter(([, row]) => row.scope === scope);
  const lists = new Set<string>();
  const page = rulesObject(of('page'), lists);
  const overlay = rulesObject(of('overlay'), lists);
  const module = rulesObject(of('module'), lists);
  // The kind of a value the loader leaves to the service, where it is not text: how an attribute's text is read.
  const kinds = of('page')
    .filter(([, row]) => row.loader === 'json' && (row.value === 'number' || row.value === 'list'))
    .map(([name, row]) => `  ${name}: ${row.value === 'number' ? 'NUMBER' : 'LIST'},\n`)
    .join('');
  const required = of('page').filter(([, row]) => row.required).length;
  const defaults = (rows: Row[]) =>
    `{ ${rows
      .filter(([, row]) => row.default !== undefined)
      .map(([name, row]) => `${name}: ${literal(row.default)}`)
      .join(', ')} } as const`;
  const used = [...lists].sort();
  return `// Written by \`npx tsx scripts/widgetOptions.ts\` from src/shared/widgetOptions.ts; edit that table, not this file.
import { ${used.join(', ')} } from '../../shared/widgetConfig';
import type { PageOption } from '../../shared/widgetOptions';
import { BOOLEAN, LENGTH, LIST, NUMBER, oneOf, SERVICE_CHECKS, STRING, type Rule } from './rules';

/** The checks of the options the service checks too, in the table's order: the first problem is the one the service would report. */
export const RULES: Record<PageOption, Rule> = ${page};

/** How many of RULES, from the first, are required. */
export const REQUIRED = ${required};

/** The defaults of the signed options, which the page's address always carries; the service applies the others. */
export const DEFAULTS = ${defaults(of('page').filter(([, row]) => row.signed))};

/** The overlay form's own options: the popup's builds refuse them by name, and carry none of their checks. */
export const OVERLAY_OPTIONS = ${names(of('overlay'))} as const;

/** The defaults of the overlay's options: the popup's fallback layer takes them too. */
export const OVERLAY_DEFAULTS = ${defaults(of('overlay'))};

/** The checks of the overlay's options, given to checkConfig by the builds that open the overlay. */
export const OVERLAY_RULES: Record<(typeof OVERLAY_OPTIONS)[number], Rule> = ${overlay};

/** The defaults of the npm module's own options. */
export const MODULE_DEFAULTS = ${defaults(of('module'))};

/** The checks of the npm module's own options (its element reads them from attributes too). */
export const MODULE_RULES: Record<'${of('module')
    .map(([name]) => name)
    .join("' | '")}', Rule> = ${module};

/**
 * The numbers and lists among the options the loader leaves to the service: the element reads an
 * attribute's text for them as a number (\`max-file-size="1048576"\`) or a list (\`accept="mp4 webm"\`).
 */
export const VALUE_RULES: Partial<Record<PageOption, Rule>> = {\n${kinds}};

/** The event handlers. */
export const HANDLERS = ${names(of('handler'))} as const;
`;
}
