import { CliError } from './cliError';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `24h`, `7d` or `0`, as milliseconds; `option` names the flag in the error. */
export function parseDuration(text: string, option: string): number {
  if (text === '0') return 0;
  const match = /^(\d{1,6})([smhd])$/.exec(text);
  if (!match) throw new CliError('usage', `${option} must be a duration like 90s, 30m, 24h or 7d (or 0), got "${text}"`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
