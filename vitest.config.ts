import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

// Start a test file's throwaway PostgreSQL cluster and Swift before it and remove them after it
// (no-ops on SQLite and disk).
const setupFiles = ['test/support/scaledSetup.ts'];

// The scale-out setting the *-scaled projects run on: PostgreSQL and S3 together.
const SCALED = { TEST_DATABASE: 'postgres', TEST_STORAGE: 's3' };

// The service tier on PostgreSQL + S3: the files that store through the API (JSON, SOAP, the SDK),
// tus, downloads, processing and callbacks. Not here: the storage tests (they run on both
// themselves, as do test/s3.service.test.ts and e2e/s3.test.ts), files about SQLite's own file (start-up checks and the adoption of old files in
// test/api.main.test.ts, DATA_DIR's file modes, the readiness check of a removed DATA_DIR), and
// files that store nothing of their own (widget pages, the WSDL, HTTP headers, `npm start`).
const SERVICE_SCALED = [
  'test/api.errors.test.ts',
  'test/api.get.test.ts',
  'test/api.http.test.ts',
  'test/api.list.test.ts',
  'test/api.post.test.ts',
  'test/api.restart.test.ts',
  'test/callback.test.ts',
  'test/download.test.ts',
  'test/download.service.test.ts',
  'test/metrics.test.ts',
  'test/processing.lease.test.ts',
  'test/processing.test.ts',
  'test/processing.queue.test.ts',
  'test/quota.test.ts',
  'test/sdk.test.ts',
  'test/security.processing.test.ts',
  'test/security.tus.test.ts',
  'test/soap.client.test.ts',
  'test/soap.faults.test.ts',
  'test/upload.tus.test.ts',
];

// The e2e files whose uploads, processing and events go through storage; the others test the
// widget's pages, keyboard and accessibility, which no storage changes (docs/testing.md).
const E2E_SCALED = ['e2e/upload.test.ts', 'e2e/upload.chunked.test.ts', 'e2e/events.test.ts', 'e2e/processing.test.ts', 'e2e/demo.test.ts'];

// Real Chromium against the built files and a real service; one file at a time on 2 cores.
const e2e = { environment: 'node', fileParallelism: false, testTimeout: 120_000, hookTimeout: 120_000, setupFiles } as const;

// Five tiers: unit (node, beside the code), component (jsdom, the uploader's states), fault
// (real service processes under crashes and broken connections), e2e (real Chromium against the
// built files and a real service); the service and e2e tiers run again on PostgreSQL with the
// files in S3 (TEST_DATABASE=postgres, TEST_STORAGE=s3: test/support/database.ts, storage.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 20_000,
          setupFiles,
        },
      },
      {
        test: {
          name: 'unit-scaled',
          environment: 'node',
          include: SERVICE_SCALED,
          testTimeout: 20_000,
          hookTimeout: 60_000,
          setupFiles,
          env: SCALED,
        },
      },
      {
        plugins: [preact()],
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
        },
      },
      {
        // Real service processes killed, cut off and starved mid-request; one file at a time.
        test: {
          name: 'fault',
          environment: 'node',
          include: ['fault/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          setupFiles,
        },
      },
      {
        // Creations racing for one video, on PostgreSQL's pool of connections and the S3 store, and
        // the start-up sweep of strays. (The other fault files start service processes with an env
        // of their own, or, as the browser reset, take 40 s for a step no storage changes.)
        test: {
          name: 'fault-scaled',
          environment: 'node',
          include: ['fault/racingCreations.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          setupFiles,
          env: SCALED,
        },
      },
      { test: { name: 'e2e', include: ['e2e/**/*.test.ts'], ...e2e } },
      { test: { name: 'e2e-scaled', include: E2E_SCALED, env: SCALED, ...e2e } },
    ],
  },
});
