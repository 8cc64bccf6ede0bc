import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context';

/** 256-bit HMAC key; a shorter one is refused rather than silently weakening every ticket. */
const KEY_BYTES = 32;

function checked(hex: string, where: string): Buffer {
  const key = Buffer.from(hex.trim(), 'hex');
  if (key.length < KEY_BYTES) throw new Error(`${where} must hold at least ${KEY_BYTES} bytes as hex`);
  return key;
}

/** The key a service made before the database kept it, from `DATA_DIR/ticket.key`, if there is one. */
function keptKey(file: string): string | undefined {
  try {
    return checked(readFileSync(file, 'utf8'), `${file} (delete it to make a new key)`).toString('hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The service's own key for upload tickets, kept in the database (`settings`), so every instance
 * on one database accepts the tickets of the others and tickets stay valid across restarts. It is
 * never an AppSecret: a ticket must not help anyone forge a Token. The first instance makes it;
 * a `DATA_DIR/ticket.key` left by an earlier version is adopted (open upload pages keep working)
 * and then removed, so it cannot come back after the key is rotated (see docs/storage.md).
 */
export async function loadTicketKey(service: ServiceContext): Promise<Buffer> {
  const file = join(service.config.dataDir, 'ticket.key');
  const kept = keptKey(file);
  const stored = await service.stores.settings.settle('ticket_key', kept ?? randomBytes(KEY_BYTES).toString('hex'), service.now());
  if (kept !== undefined) {
    rmSync(file, { force: true });
    service.log.info('DATA_DIR/ticket.key moved into the database', { adopted: stored === kept });
  }
  return checked(stored, 'the ticket key in the database');
}
