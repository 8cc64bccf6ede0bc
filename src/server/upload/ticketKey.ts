import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** 256-bit HMAC key; a shorter file is refused rather than silently weakening every ticket. */
const KEY_BYTES = 32;

/**
 * The service's own key for upload tickets, kept in `DATA_DIR/ticket.key` (hex, mode 0600) so
 * tickets stay valid across restarts. It is never an AppSecret: a ticket must not help anyone
 * forge a Token, and rotating it (delete the file, restart) only ends open upload pages.
 */
export function loadTicketKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'ticket.key');
  try {
    writeFileSync(file, randomBytes(KEY_BYTES).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A copy restored from a backup may have lost its mode; the key is as secret as the database.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length < KEY_BYTES) throw new Error(`${file} must hold at least ${KEY_BYTES} bytes as hex; delete it to make a new one`);
  return key;
}
