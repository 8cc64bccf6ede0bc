/** Redraws the uploader's state diagram in docs/widget.md from the transitions its states declare (`npx tsx scripts/widgetStates.ts`); machine.test.ts fails while it is out of date. */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transitionsOf, UPLOADER_STATES } from '../src/widget/uploader/machine';
import { RECORDER_STATES } from '../src/widget/uploader/recorder/transitions';
import { stateDiagram, withDiagram } from '../src/widget/uploader/stateDiagram';

const page = fileURLToPath(new URL('../docs/widget.md', import.meta.url));
await writeFile(page, withDiagram(await readFile(page, 'utf8'), stateDiagram(transitionsOf({ ...UPLOADER_STATES, ...RECORDER_STATES }))));
console.log('wrote docs/widget.md');
