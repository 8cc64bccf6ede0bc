/**
 * The operator's command line, run with the service's own env (APPS_FILE, DATA_DIR,
 * DATABASE_URL, …). Exit codes: 0 done, 1 refused (what the command found), 2 a usage error.
 */
import { parseArgs } from 'node:util';
import { AppsFileError } from '../auth/apps';
import { ConfigError } from '../config';
import { DatabaseFileError, DatabaseUnavailableError, SchemaVersionError } from '../storage/db';
import { appsCommands } from './appsCommands';
import { CliError } from './cliError';
import type { Command } from './command';
import { dataCommands } from './dataCommands';
import { doctorCommand } from './doctor';

const COMMANDS: readonly Command[] = [...appsCommands, ...dataCommands, doctorCommand];
const PROGRAM = 'open-video-upload';

function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.usage.length));
  return [
    `Usage: ${PROGRAM} <command> [options]    (each command also takes --help)`,
    '',
    ...commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
  ].join('\n');
}

/** The command named by the first words of `args`, and the words after them. */
function findCommand(args: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, index) => args[index] === word)) return { command, rest: args.slice(words.length) };
  }
  return undefined;
}

/** Where a run reads its settings and writes its lines. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

/** Runs one command line; resolves with the exit code. */
export async function runCli(args: readonly string[], { env, out, err }: CliIo): Promise<number> {
  try {
    const found = findCommand(args);
    if (!found) {
      const topic = COMMANDS.filter((command) => command.name.startsWith(`${args[0]} `));
      if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
        out(overview(topic.length > 0 ? topic : COMMANDS));
        return 0;
      }
      throw new CliError('usage', `unknown command "${args.join(' ')}"\n\n${overview(topic.length > 0 ? topic : COMMANDS)}`);
    }
    const { command, rest } = found;
    if (rest.includes('--help') || rest.includes('-h')) {
      out(`Usage: ${PROGRAM} ${command.usage}\n\n${command.summary}`);
      return 0;
    }
    const names = command.positionals ?? [];
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
    } catch (error) {
      throw new CliError('usage', `${(error as Error).message}\nUsage: ${PROGRAM} ${command.usage}`);
    }
    if (parsed.positionals.length !== names.length) {
      throw new CliError(
        'usage',
        `${command.name} takes ${names.map((name) => `<${name}>`).join(' ') || 'no arguments'}\nUsage: ${PROGRAM} ${command.usage}`,
      );
    }
    await command.run({ env, out, now: Date.now, positionals: parsed.positionals, values: parsed.values });
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      err(`${PROGRAM}: ${error.message}`);
      return error.exitCode;
    }
    // The service's own checks (a bad env value or APPS_FILE, an unreachable or newer database)
    // say what to fix in their message; a stack trace would bury it.
    if (
      error instanceof ConfigError ||
      error instanceof AppsFileError ||
      error instanceof DatabaseUnavailableError ||
      error instanceof DatabaseFileError ||
      error instanceof SchemaVersionError
    ) {
      err(`${PROGRAM}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
