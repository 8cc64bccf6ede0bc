/** `npm run bench`: each benchmark in turn, printing what it measured. Add new ones to the list. */
import { sizeReport } from './size';

const BENCHES: { name: string; run: () => void | Promise<void> }[] = [{ name: 'size of the built browser files', run: sizeReport }];

for (const bench of BENCHES) {
  console.log(`\n## ${bench.name}\n`);
  await bench.run();
}
