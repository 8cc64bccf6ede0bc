import { createWriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** The browser baselines' page: a file input and nothing else; the page sends to its own origin. */
const PICKER_PAGE = '<!doctype html><meta charset="utf-8"><title>sink</title><input type="file" id="file">';

export interface Sink {
  /** `http://127.0.0.1:<port>`; PUT `/<name>` stores the body as `dir/<name>`; GET `/` is a page with a file input. */
  url: string;
  close(): Promise<void>;
}

/**
 * The baseline the service is measured against: a bare node:http handler piping each PUT body
 * to a file, nothing else. It answers CORS, so a page of another origin can PUT to it too.
 */
export async function startSink(dir: string): Promise<Sink> {
  const server: Server = createServer((req, res) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'PUT',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    };
    const name = /^\/([\w.-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    if (req.method === 'GET' && req.url === '/')
      return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PICKER_PAGE);
    if (req.method !== 'PUT' || !name) return void res.writeHead(404, cors).end();
    pipeline(req, createWriteStream(join(dir, name))).then(
      () => res.writeHead(204, cors).end(),
      () => res.writeHead(500, cors).end(),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
