import { request as httpRequest } from 'node:http';
import { TUS_PATH } from '../../src/server/upload/tusEndpoint';
import { listenLoopback } from './httpServer';

/**
 * What the proxy does with the service's upload path: `drop` closes the connection (the browser
 * sees no reply, as with a request CORS blocks), `notFound` answers its own 404 page, `badGateway`
 * its own 502, as a proxy whose routes leave the path out or send it nowhere.
 */
export type UploadPathFault = 'drop' | 'notFound' | 'badGateway';

export interface BreakingProxy {
  /** `http://127.0.0.1:<port>`: another address of the service, as a reverse proxy would be. */
  origin: string;
  close(): Promise<void>;
}

/** A reverse proxy on loopback that passes every request on to `target`, except the service's upload path. */
export async function startBreakingProxy(target: string, fault: UploadPathFault): Promise<BreakingProxy> {
  const loopback = await listenLoopback((incoming, reply) => {
    const path = incoming.url ?? '/';
    if (path.startsWith(TUS_PATH)) {
      if (fault === 'drop') return void incoming.socket.destroy();
      const status = fault === 'notFound' ? 404 : 502;
      reply.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status}</h1><p>proxy</p></body></html>`);
      return;
    }
    const outgoing = httpRequest(new URL(path, target), { method: incoming.method, headers: incoming.headers, agent: false });
    outgoing.on('response', (upstream) => {
      reply.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(reply);
    });
    outgoing.on('error', () => reply.destroy());
    incoming.pipe(outgoing);
  });
  return { origin: `http://127.0.0.1:${loopback.port}`, close: () => loopback.close() };
}
