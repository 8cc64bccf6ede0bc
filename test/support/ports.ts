import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the kernel hands to outgoing connections (and to `listen(0)`). A port from there can be
 * taken by any connection between the moment it is found free and the moment a child process binds
 * it; Swift then retries the bind for 30 s and its start fails. Ports below the range are only ever
 * taken by a server asking for them by number.
 */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const LOWEST = 20000;

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((answer) => {
    server.once('error', () => answer(false));
    server.listen(port, '127.0.0.1', () => server.close(() => answer(true)));
  });
}

/** A port of 127.0.0.1 free a moment ago, for a server a test starts: picked at random below the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  const highest = ephemeralLow() - 1;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port of 127.0.0.1 between ${LOWEST} and ${highest}`);
}
