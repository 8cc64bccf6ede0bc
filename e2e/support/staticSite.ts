import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { listenLoopback, type LoopbackServer } from './httpServer';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A fixture app's `vite build` output, served as a static site on its own origin (http://localhost:<port>). */
export function serveBuilt(root: string): Promise<LoopbackServer> {
  return listenLoopback((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root)) return void res.writeHead(404).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
}
