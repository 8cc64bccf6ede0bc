import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { sendJson } from '../http/reply';
import type { Route } from '../http/router';
import { PROJECT_ROOT, PROJECT_VERSION } from '../project';
import { REVALIDATE, staticFile } from '../static/staticFiles';
import { landingPage } from './landingPage';
import { carriesOpsToken } from './opsAuth';
import { publicChecks, readinessChecker, type ReadinessReport } from './readiness';

export interface OperatorOptions {
  /** The demo app's address, linked from the landing page under `npm run demo`. */
  demoUrl?: string;
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
export function sendReadiness(res: ServerResponse, report: ReadinessReport, detailed: boolean): void {
  sendJson(res, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not ready', checks: detailed ? report.details : publicChecks(report) });
}

/** What an operator, a load balancer or a curious browser asks for: `/`, `/healthz`, `/readyz`, `/README.md`. */
export function operatorRoutes(service: ServiceContext, options: OperatorOptions = {}): Route[] {
  const readme = join(PROJECT_ROOT, 'README.md');
  const readiness = readinessChecker(service);
  let wasReady = true;
  return [
    {
      method: 'GET',
      path: '/',
      handler: ({ res }) =>
        sendHtml(res, landingPage({ version: PROJECT_VERSION, publicUrl: service.config.publicUrl, demoUrl: options.demoUrl, readme: existsSync(readme) })),
    },
    { method: 'GET', path: '/healthz', handler: ({ res }) => sendJson(res, 200, { status: 'ok' }) },
    {
      method: 'GET',
      path: '/readyz',
      handler: async ({ req, res }) => {
        const report = await readiness();
        // Said once per change, not on every probe of a load balancer.
        if (report.ready !== wasReady) {
          if (report.ready) service.log.info('ready again', { checks: report.details });
          else service.log.warn('not ready', { checks: report.details });
          wasReady = report.ready;
        }
        sendReadiness(res, report, carriesOpsToken(req, service.config.ops.token));
      },
    },
    { method: 'GET', path: '/README.md', handler: staticFile(readme, { crossOrigin: false, missingHint: '', cacheControl: REVALIDATE }) },
  ];
}
