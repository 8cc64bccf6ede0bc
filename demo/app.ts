import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_SCRIPT, demoPage } from './page';
import { createClient, isApiError, isCallbackError, verifyCallback, type CallbackRefusal } from '../src/sdk';

/** The demo app's identity on the service; the secret stays in this process. */
export interface DemoAppOptions {
  appId: string;
  appSecret: string;
  /** Where the service is reached, by this backend and by browsers (settable later on the running demo). */
  serviceUrl: string;
  /** @default 3000 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** The demo's address in browsers. @default `http://localhost:${port}` */
  publicUrl?: string;
}

interface ReceivedCallback {
  videoId: string;
  videoStatus: string;
  receivedAt: string;
  /** Why `verifyCallback` refused it; absent for a genuine callback. */
  refusal?: CallbackRefusal;
}

export interface RunningDemo {
  /** The service's URL; tests set it once the service, which must know our origin first, is up. */
  serviceUrl: string;
  /** The page's origin, e.g. http://localhost:3000. */
  origin: string;
  callbackUrl: string;
  callbacks: ReceivedCallback[];
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

/**
 * A third-party app: its backend (this server) holds the AppSecret, registers videos with the
 * service (SourceFileGetType 1), signs Timestamp/Token for its page, and receives the status
 * callbacks. Its page (another origin than the service) opens the widget in both forms.
 */
export async function startDemoApp(options: DemoAppOptions): Promise<RunningDemo> {
  const { appId, appSecret } = options;
  const state = { serviceUrl: options.serviceUrl };
  const callbacks: ReceivedCallback[] = [];

  // The service's URL may change while the demo runs (tests set it late), so a client per call.
  const client = () => createClient({ baseUrl: state.serviceUrl, appId, appSecret });

  const routes = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const videoPath = /^\/videos\/([\w-]{1,64})(\/signature)?$/.exec(url.pathname);

    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', demoPage(state.serviceUrl));
    if (req.method === 'GET' && url.pathname === '/demo.js') return send(res, 200, 'text/javascript; charset=utf-8', DEMO_SCRIPT);

    if (req.method === 'POST' && url.pathname === '/videos') {
      const input = JSON.parse((await readBody(req)) || '{}') as { title?: unknown; user?: unknown };
      const videoId = await client().postVideo({
        VideoTitle: typeof input.title === 'string' && input.title.trim() ? input.title : 'Demo video',
        CreateUser: typeof input.user === 'string' ? input.user : 'demo-user',
        SourceFileGetType: 1,
      });
      // What the page needs to call openUpload: never the secret, only a token for one timestamp.
      return json(res, 200, client().widgetConfig(videoId));
    }

    if (req.method === 'GET' && videoPath?.[2]) return json(res, 200, client().widgetConfig(videoPath[1]!));

    if (req.method === 'GET' && videoPath) return json(res, 200, await client().getVideo(videoPath[1]!));

    if (req.method === 'POST' && url.pathname === '/callback') {
      const body = await readBody(req);
      const fields = new URLSearchParams(body);
      const received: ReceivedCallback = {
        videoId: fields.get('VideoId') ?? '',
        videoStatus: fields.get('VideoStatus') ?? '',
        receivedAt: new Date().toISOString(),
      };
      try {
        verifyCallback(body, { appId, appSecret, headers: req.headers });
      } catch (error) {
        if (!isCallbackError(error)) throw error;
        received.refusal = error.code;
      }
      callbacks.push(received);
      // Answer 200 only to a genuine callback; anything else is refused and the service retries.
      return send(res, received.refusal ? 401 : 200, 'text/plain; charset=utf-8', received.refusal ?? 'ok');
    }

    if (req.method === 'GET' && url.pathname === '/callbacks') return json(res, 200, callbacks);

    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  };

  const server: Server = createServer((req, res) => {
    routes(req, res).catch((error: unknown) => {
      // A refusal from the service is passed on with its AuthMsg; the page shows it.
      if (isApiError(error) && !res.headersSent) json(res, 502, { error: { ResultCode: error.code, ResultMessage: error.message } });
      else if (!res.headersSent) json(res, 500, { error: String((error as Error)?.message ?? error) });
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  const origin = options.publicUrl ?? `http://localhost:${port}`;

  return {
    get serviceUrl() {
      return state.serviceUrl;
    },
    set serviceUrl(value: string) {
      state.serviceUrl = value;
    },
    origin,
    callbackUrl: `http://${host}:${port}/callback`,
    callbacks,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
