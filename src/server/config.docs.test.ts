import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';
import { CONFIGURATION_PAGE, configurationPage } from './configDocs';
import { SETTINGS } from './configSchema';
import { PROJECT_ROOT } from './project';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the settings table', () => {
    const committed = readFileSync(resolve(PROJECT_ROOT, CONFIGURATION_PAGE), 'utf8');
    expect(
      committed === configurationPage(),
      `${CONFIGURATION_PAGE} is out of date with src/server/configSchema.ts: run \`npm run docs:config\` and commit it`,
    ).toBe(true);
  });

  it('has a row for every variable, with its default and range', () => {
    const page = configurationPage();
    for (const name of Object.keys(SETTINGS)) expect(page).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(page).toContain('| `PORT` | `8080` | 0–65535 |');
    expect(page).toContain('| `JOB_LEASE_MS` | `60000` | ms, 1000–3600000 |');
  });
});

describe('the settings table', () => {
  /** The names `readConfig` looks up in `env`. */
  function namesRead(env: Record<string, string>): Set<string> {
    const read = new Set<string>();
    readConfig(
      new Proxy(env, {
        get(target, name) {
          if (typeof name === 'string') read.add(name);
          return target[name as string];
        },
      }),
    );
    return read;
  }

  // A variable read but not in the table would be missing from the docs; one in the table but never read would be documented and ignored.
  it('is every variable readConfig reads, and only those', () => {
    const names = Object.keys(SETTINGS).sort();
    expect([...namesRead({})].sort()).toEqual(names);
    expect(
      [...namesRead({ S3_BUCKET: 'videos', S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret-key-0123' })].sort(),
    ).toEqual(names);
  });

  it('gives each variable a one-line doc', () => {
    for (const [name, row] of Object.entries(SETTINGS)) expect(row.doc, name).toMatch(/^[^\n]+\.\)?$/);
  });
});
