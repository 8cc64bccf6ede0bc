import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceContext } from '../context';
import { ServiceError, isServiceError } from '../errors';
import { sendServiceError } from '../http/reply';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/requestId';
import { matchRoute, requestUrl, type Route } from '../http/router';
import { withLogFields } from '../log';

export interface OpsListener {
  /** The bound address, e.g. http://127.0.0.1:9100. */
  address: string;
  close(): Promise<void>;
}

/**
 * The second listener of OPS_PORT, on OPS_HOST (loopback by default): a scraper or an operator on
 * the machine reads /metrics and the detailed /readyz there without a token, while the public
 * port keeps asking for OPS_TOKEN.
 */
export async function startOpsListener(service: ServiceContext, routes: Route[]): Promise<OpsListener> {
  const { host, port } = service.config.ops;
  const server = createServer((req, res) => {
    const requestId = requestIdOf(req.headers);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    void withLogFields({ requestId }, async () => {
      try {
        const url = requestUrl(req.url);
        if (!url) throw new ServiceError('INVALID_PARAMETER', 'the request target is not a valid URL');
        await matchRoute(routes, req.method ?? 'GET', url.pathname).handler({ req, res, url, requestId });
      } catch (error) {
        if (!isServiceError(error)) service.log.error('operator request failed', { error: String((error as Error)?.stack ?? error) });
        if (res.headersSent) res.destroy();
        else sendServiceError(res, isServiceError(error) ? error : new ServiceError('INTERNAL'));
      }
    });
  });
  await new Promise<void>((listening, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => listening());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    address: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
