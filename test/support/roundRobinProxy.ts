import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy passed it on: which upstream took it, and how it ended. */
export interface ProxiedRequest {
  method: string;
  path: string;
  upstream: number;
  /** When the connection to the upstream was made (ms since the epoch). */
  sentAt: number;
  /** The upstream's status; undefined while it is in flight; 502 when the upstream failed after it was sent. */
  status?: number;
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`: the one address clients use, as they would a load balancer's. */
  url: string;
  /** Every request sent to an upstream so far, in the order sent (a refused connection is not one). */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** Connection errors that mean the request never reached the upstream, so another may take it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH']);

/**
 * A small HTTP load balancer for tests: each request goes to the next upstream in turn (no
 * stickiness, so one upload's PATCHes alternate between instances). Like nginx's
 * `proxy_next_upstream error`, a request whose upstream refuses the connection goes to the next
 * one; once a request was sent, a failure answers 502 and the client decides (tus retries).
 * Connections to upstreams are not kept alive, so the turn really changes per request.
 */
export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  const requests: ProxiedRequest[] = [];
  let turn = 0;

  const forward = (incoming: IncomingMessage, reply: ServerResponse, start: number, attempt: number) => {
    const index = (start + attempt) % upstreams.length;
    const target = new URL(incoming.url ?? '/', upstreams[index]);
    const outgoing = httpRequest(target, {
      method: incoming.method,
      headers: { ...incoming.headers, host: target.host, connection: 'close' },
      agent: false,
    });
    let sent: ProxiedRequest | undefined;
    outgoing.on('socket', (socket) =>
      socket.once('connect', () => {
        sent = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', upstream: index, sentAt: Date.now() };
        requests.push(sent);
      }),
    );
    outgoing.on('response', (upstreamReply) => {
      sent!.status = upstreamReply.statusCode;
      reply.writeHead(upstreamReply.statusCode ?? 502, upstreamReply.headers);
      upstreamReply.pipe(reply);
      upstreamReply.on('error', () => reply.destroy());
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!sent && NOT_SENT.has(error.code ?? '') && attempt + 1 < upstreams.length) {
        forward(incoming, reply, start, attempt + 1);
        return;
      }
      if (sent) sent.status ??= 502;
      if (reply.headersSent) return void reply.destroy();
      // The rest of the body is read and dropped: a client still sending it (a browser's PATCH)
      // sees the 502 only once its body is out.
      incoming.unpipe(outgoing);
      incoming.resume();
      reply.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end('upstream failed');
    });
    // The body is piped only once the connection is up, so a refused attempt has consumed none of it.
    outgoing.on('socket', (socket) => socket.once('connect', () => incoming.pipe(outgoing)));
    incoming.on('aborted', () => outgoing.destroy());
  };

  const server: Server = createServer((incoming, reply) => {
    const start = turn;
    turn = (turn + 1) % upstreams.length;
    forward(incoming, reply, start, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
