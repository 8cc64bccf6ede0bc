import { SETTINGS, type Setting } from './configSchema';

/** Where `npm run docs:config` writes the page, from the project folder. */
export const CONFIGURATION_PAGE = 'docs/configuration.md';

const INTRO = `# Configuration

<!-- Written by \`npm run docs:config\` from src/server/configSchema.ts; edit that table, not this file. -->

The service reads these environment variables once, at start-up. A bad value stops it with one
line naming the variable (exit code 1), never a stack trace; an empty value counts as unset.
Flags take \`1\` or \`0\` only. Back to the [README](../README.md#running-the-service).

A new variable is a row of \`SETTINGS\` in src/server/configSchema.ts and a field of
\`ServiceConfig\` that \`readConfig\` (src/server/config.ts) fills from it; then
\`npm run docs:config\` rewrites this page. Why a table of our own:
[decisions.md](decisions.md#configuration).
`;

/** A table cell: a \`|\` would end the cell early. */
const cell = (markdown: string): string => markdown.replace(/\|/g, '\\|');

function accepts(row: Setting<unknown>): string {
  return [row.unit, row.range].filter((part) => part !== undefined).join(', ') || row.type;
}

/** docs/configuration.md, as the table in configSchema.ts has it now. */
export function configurationPage(): string {
  const rows = Object.entries(SETTINGS).map(
    ([name, row]: [string, Setting<unknown>]) =>
      `| \`${name}\` | ${cell(row.default ?? 'none')} | ${cell(accepts(row))} | ${cell(row.doc)} |`,
  );
  return `${INTRO}
| Variable | Default | Unit / range | Meaning |
|---|---|---|---|
${rows.join('\n')}
`;
}
