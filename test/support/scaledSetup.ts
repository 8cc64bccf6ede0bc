import { afterAll, beforeAll } from 'vitest';

interface Harness {
  start(): Promise<void>;
  stop(): Promise<void>;
}

// Only a run that names a database or a storage loads their harness (pg, the S3 client) into every
// test file. What it names starts as the file loads, the PostgreSQL cluster and the Swift side by
// side, and the hook waits for them, so they are up before the file's own hooks; they are removed
// after them, once the file's services have stopped (Swift's processes are also killed on exit if
// a run dies first). In the *-scaled projects they are the run's shared cluster and Swift
// (`scaledServers.ts`): starting is then instant, and stopping drops the file's databases.
const harnesses: Harness[] = [];
if (process.env.TEST_DATABASE) {
  const { startTestDatabases: start, stopTestDatabases: stop } = await import('./database');
  harnesses.push({ start, stop });
}
if (process.env.TEST_STORAGE) {
  const { startTestStorage: start, stopTestStorage: stop } = await import('./storage');
  harnesses.push({ start, stop });
}
if (harnesses.length > 0) {
  const started = Promise.all(harnesses.map((harness) => harness.start()));
  // Its failure is reported by the hook below; this only keeps it from counting as unhandled meanwhile.
  started.catch(() => undefined);
  beforeAll(() => started, 180_000);
  afterAll(() => Promise.all(harnesses.map((harness) => harness.stop())), 60_000);
}
