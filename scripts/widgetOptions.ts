/**
 * Writes what the widget options table (src/shared/widgetOptions.ts) gives other files: the
 * options table of docs/widget.md (`npx tsx scripts/widgetOptions.ts`); widgetOptions.test.ts
 * fails while a written file is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { optionsTable, withOptionsTable } from '../src/shared/widgetOptionsDocs';

const page = fileURLToPath(new URL('../docs/widget.md', import.meta.url));
await writeFile(page, withOptionsTable(await readFile(page, 'utf8'), optionsTable()));
console.log('wrote docs/widget.md');
