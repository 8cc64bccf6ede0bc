/** Writes docs/configuration.md from the settings table (`npm run docs:config`); a test fails while the file is out of date. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CONFIGURATION_PAGE, configurationPage } from '../src/server/configDocs';
import { PROJECT_ROOT } from '../src/server/project';

await writeFile(resolve(PROJECT_ROOT, CONFIGURATION_PAGE), configurationPage());
console.log(`wrote ${CONFIGURATION_PAGE}`);
