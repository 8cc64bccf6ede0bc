/**
 * Writes what the widget options table (src/shared/widgetOptions.ts) gives other files: the
 * options table of docs/widget.md and the loader's rules (src/widget/loader/optionRules.ts),
 * with `npx tsx scripts/widgetOptions.ts`; widgetOptions.test.ts fails while either is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { LOADER_RULES_FILE, loaderRulesModule } from '../src/shared/loaderRulesSource';
import { optionsTable, withOptionsTable } from '../src/shared/widgetOptionsDocs';

const inProject = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const page = inProject('docs/widget.md');
await writeFile(page, withOptionsTable(await readFile(page, 'utf8'), optionsTable()));
await writeFile(inProject(LOADER_RULES_FILE), loaderRulesModule());
console.log(`wrote docs/widget.md and ${LOADER_RULES_FILE}`);
