#!/usr/bin/env node
// `npx open-video-upload <command>`: the operator's command line (src/server/cli), built first when
// needed, as `npm start` is (scripts/start.mjs).
process.argv.splice(2, 0, 'cli');
await import('./start.mjs');
