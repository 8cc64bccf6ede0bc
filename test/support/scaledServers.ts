import type { TestProject } from 'vitest/node';
import { SHARED_CLUSTER_ENV, startPostgres, type TestPostgres } from './postgres';
import { SHARED_S3_ENV, startS3, type TestS3 } from './s3';

// One PostgreSQL cluster and one Swift for a whole run of the *-scaled projects (vitest's
// globalSetup, in the main process), rather than one of each per test file: their start took
// seconds per file. A file still gives each DATA_DIR a fresh database and bucket of its own
// (`database.ts`, `storage.ts`), so no file sees another's data. Their addresses reach the test
// processes in their env, which vitest builds after every globalSetup has run.

interface Servers {
  postgres?: Promise<TestPostgres>;
  s3?: Promise<TestS3>;
  /** Projects still using them: each scaled project runs this setup, and the last one stops them. */
  users: number;
}

const KEY = Symbol.for('ovu.scaledServers');
const shared = globalThis as typeof globalThis & { [KEY]?: Servers };

export default async function startScaledServers(project: TestProject): Promise<() => Promise<void>> {
  const servers = (shared[KEY] ??= { users: 0 });
  servers.users++;
  const { TEST_DATABASE, TEST_STORAGE } = project.config.env;
  if (TEST_DATABASE === 'postgres') servers.postgres ??= startPostgres();
  if (TEST_STORAGE === 's3') servers.s3 ??= startS3();
  const [postgres, s3] = await Promise.all([servers.postgres, servers.s3]);
  if (postgres) process.env[SHARED_CLUSTER_ENV] = postgres.url;
  if (s3) process.env[SHARED_S3_ENV] = s3.endpoint;
  return async () => {
    if (--servers.users > 0) return;
    delete shared[KEY];
    delete process.env[SHARED_CLUSTER_ENV];
    delete process.env[SHARED_S3_ENV];
    await Promise.all([postgres?.stop(), s3?.stop()]);
  };
}
