import { WIDGET_OPTIONS, type WidgetOption } from './widgetOptions';

/** Where the options table sits in docs/widget.md: between these two lines. */
const OPTIONS_MARKERS = { begin: '<!-- widget options: begin -->', end: '<!-- widget options: end -->' } as const;

/** A table cell: a `|` would end the cell early. */
const cell = (markdown: string): string => markdown.replace(/\|/g, '\\|');

const quoted = (value: string): string => `'${value}'`;

function typeOf(row: WidgetOption): string {
  if (row.type) return row.type;
  const allowed = Array.isArray(row.query) ? row.query : row.loader;
  if (row.value === 'string' && Array.isArray(allowed)) return `\`${(allowed as readonly string[]).map(quoted).join(' | ')}\``;
  return row.value;
}

function defaultOf(row: WidgetOption): string {
  if (row.shown) return row.shown;
  if (row.required) return 'required';
  const value = row.default;
  if (value === undefined) return '–';
  if (typeof value === 'string') return `\`${quoted(value)}\``;
  if (typeof value === 'boolean') return `\`${value}\``;
  return `\`[${value.map(quoted).join(', ')}]\``;
}

/** The options table, one row per option in the table's order. */
export function optionsTable(): string {
  const rows = Object.entries(WIDGET_OPTIONS).map(
    ([name, row]: [string, WidgetOption]) => `| \`${name}\` | ${cell(typeOf(row))} | ${cell(defaultOf(row))} | ${cell(row.doc)} |`,
  );
  return [
    '<!-- Written by `npx tsx scripts/widgetOptions.ts` from src/shared/widgetOptions.ts; edit that table, not these lines. -->',
    '',
    '| option | type | default | notes |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `doc` with the options table between the markers replaced by `table`. */
export function withOptionsTable(doc: string, table: string): string {
  const start = doc.indexOf(OPTIONS_MARKERS.begin);
  const end = doc.indexOf(OPTIONS_MARKERS.end);
  if (start < 0 || end < start)
    throw new Error(`docs/widget.md: the markers ${OPTIONS_MARKERS.begin} and ${OPTIONS_MARKERS.end} are missing`);
  return `${doc.slice(0, start + OPTIONS_MARKERS.begin.length)}\n${table}\n${doc.slice(end)}`;
}
