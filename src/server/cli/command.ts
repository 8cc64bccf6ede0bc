import type { ParseArgsConfig } from 'node:util';

/** What a command is handed: the service's environment, where to print, and the clock. */
interface CommandContext {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  now(): number;
  /** The values of the positionals the command declares, in order (each one required). */
  positionals: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
}

/** One command of `open-video-upload`: its words (`apps add`), its help, and what it does. */
export interface Command {
  name: string;
  usage: string;
  summary: string;
  positionals?: string[];
  options?: NonNullable<ParseArgsConfig['options']>;
  run(context: CommandContext): Promise<void>;
}
