/** How a command ended badly: `usage` (exit 2) is the operator's typing, `refused` (exit 1) what the command found. */
export type CliErrorKind = 'usage' | 'refused';

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly kind: CliErrorKind,
    message: string,
  ) {
    super(message);
  }

  get exitCode(): number {
    return this.kind === 'usage' ? 2 : 1;
  }
}
