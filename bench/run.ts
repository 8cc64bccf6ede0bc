/** `npm run bench`: each benchmark in turn. Add new ones to the list. */
import { sizeReport } from './size';

const BENCHES: { name: string; run: () => boolean | Promise<boolean> }[] = [{ name: 'size of the built browser files', run: sizeReport }];

let ok = true;
for (const bench of BENCHES) {
  console.log(`\n## ${bench.name}\n`);
  if (!(await bench.run())) ok = false;
}
if (!ok) process.exitCode = 1;
