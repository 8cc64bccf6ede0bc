import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

// Start a test file's throwaway PostgreSQL cluster and Swift before it and remove them after it
// (no-ops on SQLite and disk); in the *-scaled projects, make its databases and buckets in the
// cluster and the Swift the whole run shares instead.
const setupFiles = ['test/support/scaledSetup.ts'];
const globalSetup = ['test/support/scaledServers.ts'];

// The scale-out setting the *-scaled projects run on: PostgreSQL and S3 together.
const SCALED = { TEST_DATABASE: 'postgres', TEST_STORAGE: 's3' };

// A file named *.scaled.test.ts runs twice: on the default SQLite + disk, and again on PostgreSQL
// + S3. Those are the files that store through the service (API, SOAP, SDK, tus, downloads,
// processing, callbacks, quotas, metrics); a new one joins by its name, not by a list. The others
// run once: the storage tests run on both databases themselves, and the rest are about SQLite's
// own file, DATA_DIR's modes, or store nothing (widget pages, the WSDL, HTTP headers, npm start).
const SCALED_FILES = '**/*.scaled.test.ts';

// Real Chromium against the built files and a real service. Every file starts its own service,
// browser, ports and temporary folders, so two run at once beside the service files: they mostly
// wait on sockets, browsers and slowed proxies, and one at a time made the suite twice as long.
const e2e = { environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, setupFiles } as const;
// The WebDriver engines and the fault tier stay one file at a time, after the rest (vitest runs
// projects without file parallelism last): they kill processes, fill disks and time slowed links.
const engines = { ...e2e, fileParallelism: false } as const;
// Real service processes killed, cut off and starved mid-request; one file at a time.
const fault = { environment: 'node', fileParallelism: false, testTimeout: 120_000, hookTimeout: 60_000, setupFiles } as const;
// Generous: two files run at once, and a test that probes media in S3 can wait on the other's ffmpeg.
const service = { environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, setupFiles } as const;

// The tiers, each callable by name (package.json: test:unit, test:service, test:e2e, test:fault,
// test:scaled; docs/testing.md): unit (Node alone, beside the code), component (jsdom, the
// uploader's states), service (real service, SQLite, ffmpeg, PostgreSQL, Swift, PHP on loopback),
// fault (real service processes under crashes and outages), e2e (real Chromium against the built
// files); service, fault and e2e run their *.scaled.test.ts files again on PostgreSQL + S3.
export default defineConfig({
  test: {
    // Two files at once even on 2 cores (vitest's default there is one): the tiers wait on
    // processes, sockets and browsers far more than they compute.
    maxWorkers: 2,
    projects: [
      // Node alone: no ffmpeg, PostgreSQL, Swift, PHP or Chromium is needed or looked for.
      { test: { name: 'unit', environment: 'node', include: ['src/**/*.test.ts'] } },
      { plugins: [preact()], test: { name: 'component', environment: 'jsdom', include: ['src/**/*.test.tsx'] } },
      { test: { name: 'service', include: ['test/**/*.test.ts'], ...service } },
      { test: { name: 'service-scaled', include: [`test/${SCALED_FILES}`], env: SCALED, globalSetup, ...service } },
      { test: { name: 'fault', include: ['fault/**/*.test.ts'], ...fault } },
      { test: { name: 'fault-scaled', include: [`fault/${SCALED_FILES}`], env: SCALED, globalSetup, ...fault } },
      { test: { name: 'e2e', include: ['e2e/**/*.test.ts'], ...e2e } },
      { test: { name: 'e2e-scaled', include: [`e2e/${SCALED_FILES}`], env: SCALED, globalSetup, ...e2e } },
      // The widget in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver classic) as well.
      { test: { name: 'engines', include: ['engines/**/*.test.ts'], ...engines } },
    ],
  },
});
