/** `npx open-video-upload <command>` (scripts/cli.mjs runs the build of this file). */
import { runCli } from './runCli';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
