import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { sendJson } from '../http/reply';
import type { Route } from '../http/router';
import { PROJECT_ROOT, PROJECT_VERSION } from '../project';
import { REVALIDATE, staticFile } from '../static/staticFiles';
import { landingPage } from './landingPage';
import { readinessChecker } from './readiness';

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
      handler: async ({ res }) => {
        const report = await readiness();
        // Said once per change, not on every probe of a load balancer.
        if (report.ready !== wasReady) {
          if (report.ready) service.log.info('ready again', { checks: report.checks });
          else service.log.warn('not ready', { checks: report.checks });
          wasReady = report.ready;
        }
        sendJson(res, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not ready', checks: report.checks });
      },
    },
    { method: 'GET', path: '/README.md', handler: staticFile(readme, { crossOrigin: false, missingHint: '', cacheControl: REVALIDATE }) },
  ];
}
