import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { errorBody, sendJson } from '../http/reply';
import type { Route } from '../http/router';
import { PROJECT_ROOT, PROJECT_VERSION } from '../project';
import { REVALIDATE, staticFile } from '../static/staticFiles';
import { landingPage } from './landingPage';
import { carriesOpsToken } from './opsAuth';
import { publicChecks, readinessChecker, type ReadinessReport } from './readiness';

export interface OperatorOptions {
  /** The demo app's address, linked from the landing page under `npm run demo`. */
  demoUrl?: string;
  /** Shared with the operator's listener (OPS_PORT), so a failing part is logged once, not once per listener. */
  readiness?: ReadinessProbe;
}

/** Runs /readyz's checks, and logs `not ready` and `ready again` once per change, not on every probe of a load balancer. */
export type ReadinessProbe = () => Promise<ReadinessReport>;

export function readinessProbe(service: ServiceContext): ReadinessProbe {
  const check = readinessChecker(service);
  let wasReady = true;
  return async () => {
    const report = await check();
    if (report.ready !== wasReady) {
      if (report.ready) service.log.info('ready again', { checks: report.details });
      else service.log.warn('not ready', { checks: report.details });
      wasReady = report.ready;
    }
    return report;
  };
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(html);
}

/**
 * The /readyz reply: 200 or 503, and per part 'ok' or 'failing'; to an operator (`detailed`), why
 * a part fails, which may name hosts, the bucket and error codes.
 */
function sendReadiness(res: ServerResponse, report: ReadinessReport, detailed: boolean): void {
  sendJson(res, report.ready ? 200 : 503, {
    status: report.ready ? 'ready' : 'not ready',
    checks: detailed ? report.details : publicChecks(report),
  });
}

/**
 * 401 (credentials missing or wrong, as HTTP means it) with the table's 108, which names no
 * setting's value; `WWW-Authenticate` tells a scraper which scheme to use.
 */
function sendOpsTokenRequired(res: ServerResponse): void {
  res.setHeader('WWW-Authenticate', 'Bearer realm="operator"');
  sendJson(res, 401, errorBody(new ServiceError('NO_PERMISSION', 'this needs Authorization: Bearer <OPS_TOKEN>')));
}

/** What an operator, a load balancer or a curious browser asks for: `/`, `/healthz`, `/readyz`, `/metrics`, `/README.md`. */
export function operatorRoutes(service: ServiceContext, options: OperatorOptions = {}): Route[] {
  const readme = join(PROJECT_ROOT, 'README.md');
  const readiness = options.readiness ?? readinessProbe(service);
  const operator = (req: Parameters<typeof carriesOpsToken>[0]) => carriesOpsToken(req, service.config.ops.token);
  return [
    {
      method: 'GET',
      path: '/',
      handler: ({ res }) =>
        sendHtml(
          res,
          landingPage({
            version: PROJECT_VERSION,
            publicUrl: service.config.publicUrl,
            demoUrl: options.demoUrl,
            readme: existsSync(readme),
          }),
        ),
    },
    { method: 'GET', path: '/healthz', handler: ({ res }) => sendJson(res, 200, { status: 'ok' }) },
    { method: 'GET', path: '/readyz', handler: async ({ req, res }) => sendReadiness(res, await readiness(), operator(req)) },
    { method: 'GET', path: '/metrics', handler: ({ req, res }) => (operator(req) ? service.metrics.send(res) : sendOpsTokenRequired(res)) },
    { method: 'GET', path: '/README.md', handler: staticFile(readme, { crossOrigin: false, missingHint: '', cacheControl: REVALIDATE }) },
  ];
}

/**
 * The operator's listener (OPS_PORT): reachable only where it is bound (loopback by default), so
 * it answers /metrics and the detailed /readyz without a token.
 */
export function opsListenerRoutes(service: ServiceContext, readiness: ReadinessProbe): Route[] {
  return [
    { method: 'GET', path: '/healthz', handler: ({ res }) => sendJson(res, 200, { status: 'ok' }) },
    { method: 'GET', path: '/readyz', handler: async ({ res }) => sendReadiness(res, await readiness(), true) },
    { method: 'GET', path: '/metrics', handler: ({ res }) => service.metrics.send(res) },
  ];
}
