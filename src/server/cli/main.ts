/** `npx open-video-upload <command>` (scripts/cli.mjs runs the build of this file). */
import { runCli } from './runCli';

// A reader that stops early (`apps list | head -1`) closes the pipe: nobody is left to read the
// rest, so the command ends quietly instead of with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
