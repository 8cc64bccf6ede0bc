import { connect, createServer, type Socket } from 'node:net';

/** What the proxy does to the bytes a client sends towards the service. */
interface Fault {
  /** Held this long before the first byte is passed on. */
  delayMs?: number;
  /** Passed on at about this rate. */
  bytesPerSecond?: number;
  /** After this many bytes of a connection, it is ended: `cut` closes both sides, `reset` sends a TCP RST to the client. */
  breakAfterBytes?: number;
  how?: 'cut' | 'reset';
  /** Break one connection only; the break rule is then dropped (a retry passes). */
  once?: boolean;
}

/** A TCP proxy of our own on 127.0.0.1 in front of a service, which delays, throttles, cuts or resets. */
export interface FaultyProxy {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The fault, applied from now on to every connection (those already open included). */
  fault: Fault;
  /** Connections broken so far. */
  readonly breaks: number;
  /** Points the proxy at another port (a restarted service). */
  retarget(port: number): void;
  close(): Promise<void>;
}

interface ProxyState {
  fault: Fault;
  breaks: number;
}

function pass(client: Socket, upstream: Socket, state: ProxyState): void {
  let sent = 0;
  let started = false;
  const breakNow = () => {
    const { how, once } = state.fault;
    state.breaks++;
    if (once) state.fault = { ...state.fault, breakAfterBytes: undefined };
    if (how === 'reset') client.resetAndDestroy();
    else client.destroy();
    upstream.destroy();
  };
  client.on('data', (chunk: Buffer) => {
    client.pause();
    const fault = state.fault;
    const limit = fault.breakAfterBytes ?? Infinity;
    const part = chunk.subarray(0, Math.max(0, limit - sent));
    sent += part.length;
    const wait = (started ? 0 : (fault.delayMs ?? 0)) + (fault.bytesPerSecond ? (part.length / fault.bytesPerSecond) * 1000 : 0);
    started = true;
    setTimeout(() => {
      if (upstream.destroyed) return;
      if (part.length > 0) upstream.write(part);
      if (sent >= limit) breakNow();
      else client.resume();
    }, wait);
  });
  client.on('end', () => upstream.end());
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
}

export async function startFaultyProxy(targetPort: number): Promise<FaultyProxy> {
  let target = targetPort;
  const sockets = new Set<Socket>();
  const state: ProxyState = { fault: {}, breaks: 0 };
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    pass(client, upstream, state);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    get fault() {
      return state.fault;
    },
    set fault(value: Fault) {
      state.fault = value;
    },
    get breaks() {
      return state.breaks;
    },
    retarget(port) {
      target = port;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
