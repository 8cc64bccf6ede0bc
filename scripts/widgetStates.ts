/** Redraws the uploader's state diagram in docs/widget.md from its transition table (`npx tsx scripts/widgetStates.ts`); machine.test.ts fails while it is out of date. */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { TRANSITIONS } from '../src/widget/uploader/machine';
import { stateDiagram, withDiagram } from '../src/widget/uploader/stateDiagram';

const page = fileURLToPath(new URL('../docs/widget.md', import.meta.url));
await writeFile(page, withDiagram(await readFile(page, 'utf8'), stateDiagram(TRANSITIONS)));
console.log('wrote docs/widget.md');
