import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { BLANK_PAGE, framingPage, hostPage, type HostKind } from './hostPages';
import { listenLoopback } from './httpServer';

export const DIST_DIR = resolve(import.meta.dirname, '../../dist');
const NPM_DIR = join(DIST_DIR, 'npm');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
};

const KINDS: Record<string, HostKind> = {
  '/popup.html': 'popup',
  '/overlay.html': 'overlay',
  '/esm-popup.html': 'esm-popup',
  '/esm-overlay.html': 'esm-overlay',
};

export interface HostServer {
  /** `http://localhost:<port>`: another origin and another site than the service on 127.0.0.1. */
  origin: string;
  /** The service's public URL; set once the service runs (its allowed origins need ours first). */
  serviceUrl: string;
  close(): Promise<void>;
}

/** The npm module's entry, as package.json `exports` names it (./dist/npm/index.js). */
const ESM_ENTRY = 'index.js';

/**
 * Serves the host pages, the framing page and the built ESM module (dist/npm) as a third-party
 * app would. `localhost` resolves to 127.0.0.1 in Chromium, so this stays on loopback.
 */
export async function startHostServer(): Promise<HostServer> {
  const state = { serviceUrl: '' };
  const loopback = await listenLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const kind = KINDS[url.pathname];
    if (kind) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(hostPage(kind, state.serviceUrl, ESM_ENTRY));
      return;
    }
    if (url.pathname === '/framing.html') {
      const inner = url.searchParams.get('inner') ?? '/overlay.html';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(framingPage(inner.startsWith('/') ? inner : '/overlay.html'));
      return;
    }
    if (url.pathname === '/blank.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(BLANK_PAGE);
      return;
    }
    if (url.pathname.startsWith('/npm/')) {
      const file = normalize(join(NPM_DIR, url.pathname.slice('/npm/'.length)));
      if (file.startsWith(NPM_DIR) && existsSync(file)) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(readFileSync(file));
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  return {
    origin: `http://localhost:${loopback.port}`,
    get serviceUrl() {
      return state.serviceUrl;
    },
    set serviceUrl(value: string) {
      state.serviceUrl = value;
    },
    close: () => loopback.close(),
  };
}

/** A second, unrelated origin, for windows that must not be able to talk to the widget. */
export async function startOtherOrigin(): Promise<{ origin: string; close(): Promise<void> }> {
  const loopback = await listenLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(BLANK_PAGE);
  });
  return { origin: `http://localhost:${loopback.port}`, close: () => loopback.close() };
}
