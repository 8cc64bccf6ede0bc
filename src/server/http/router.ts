import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceError } from '../errors';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Names the request in its log lines and in the reply's `X-Request-Id` (http/requestId.ts). */
  requestId: string;
}

export type Handler = (request: RequestContext) => void | Promise<void>;

export interface Route {
  method: 'GET' | 'POST' | 'ANY';
  /** Exact path, or a prefix when it ends with `/*`. */
  path: string;
  handler: Handler;
}

/**
 * The request target as a URL, or undefined when it is not one (`GET //`, `GET http://[`):
 * the caller answers those with a code instead of letting the parse throw outside its handler.
 */
export function requestUrl(target: string | undefined): URL | undefined {
  const raw = target || '/';
  try {
    // Origin-form targets are joined to a base as text: `new URL('//x', base)` would read `x` as a host.
    return raw.startsWith('/') ? new URL(`http://service.invalid${raw}`) : new URL(raw);
  } catch {
    return undefined;
  }
}

/** Finds the route for a request; a known path with another method is 405, an unknown path 404. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): Route {
  let pathKnown = false;
  for (const route of routes) {
    const matches = route.path.endsWith('/*')
      ? pathname.startsWith(route.path.slice(0, -1)) || pathname === route.path.slice(0, -2)
      : pathname === route.path;
    if (!matches) continue;
    pathKnown = true;
    if (route.method === 'ANY' || route.method === method || (route.method === 'GET' && method === 'HEAD')) {
      return route;
    }
  }
  if (pathKnown) throw new ServiceError('METHOD_NOT_ALLOWED', method);
  throw new ServiceError('NOT_FOUND', pathname);
}
