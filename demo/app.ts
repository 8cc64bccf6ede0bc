import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_SCRIPT, demoPage } from './page';
import { checkCallback, sign, type CallbackCheck } from './signing';

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

export interface ReceivedCallback extends CallbackCheck {
  videoId: string;
  videoStatus: string;
  receivedAt: string;
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

const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

/**
 * A third-party app: its backend (this server) holds the AppSecret, registers videos with the
 * service (SourceFileGetType 1), signs Timestamp/Token for its page, and receives the status
 * callbacks. Its page (another origin than the service) opens the widget in both forms.
 */
export async function startDemoApp(options: DemoAppOptions): Promise<RunningDemo> {
  const { appId, appSecret } = options;
  const state = { serviceUrl: options.serviceUrl };
  const callbacks: ReceivedCallback[] = [];

  /** What the page needs to call openUpload: never the secret, only a token for one timestamp. */
  const widgetAuth = (videoId: string) => {
    const { Timestamp, Token } = sign(appSecret);
    return { appId, timestamp: Timestamp, token: Token, videoId };
  };

  const serviceCall = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${state.serviceUrl}${path}`, init);
    return (await res.json()) as { AuthMsg?: { ResultCode: string; ResultMessage: string }; VideoId?: string };
  };

  const routes = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const videoPath = /^\/videos\/([\w-]{1,64})(\/signature)?$/.exec(url.pathname);

    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', demoPage(state.serviceUrl));
    if (req.method === 'GET' && url.pathname === '/demo.js') return send(res, 200, 'text/javascript; charset=utf-8', DEMO_SCRIPT);

    if (req.method === 'POST' && url.pathname === '/videos') {
      const input = JSON.parse((await readBody(req)) || '{}') as { title?: unknown; user?: unknown };
      const { Timestamp, Token } = sign(appSecret);
      const reply = await serviceCall('/Api/Video/Post', {
        method: 'POST',
        body: new URLSearchParams({
          AppId: appId,
          Timestamp,
          Token,
          VideoTitle: typeof input.title === 'string' && input.title.trim() ? input.title : 'Demo video',
          CreateUser: typeof input.user === 'string' ? input.user : 'demo-user',
          SourceFileGetType: '1',
          SourceFilePath: '',
        }),
      });
      if (reply.AuthMsg?.ResultCode !== '1' || !reply.VideoId) return json(res, 502, { error: reply.AuthMsg ?? 'no reply' });
      return json(res, 200, widgetAuth(reply.VideoId));
    }

    if (req.method === 'GET' && videoPath?.[2]) return json(res, 200, widgetAuth(videoPath[1]!));

    if (req.method === 'GET' && videoPath) {
      const { Timestamp, Token } = sign(appSecret);
      const query = new URLSearchParams({ AppId: appId, Timestamp, Token, Id: videoPath[1]! });
      return json(res, 200, await serviceCall(`/Api/Video/Get?${query}`));
    }

    if (req.method === 'POST' && url.pathname === '/callback') {
      const body = await readBody(req);
      const fields = new URLSearchParams(body);
      const signature = req.headers['x-signature'];
      const check = checkCallback(appSecret, body, Array.isArray(signature) ? signature[0] : signature);
      callbacks.push({ videoId: fields.get('VideoId') ?? '', videoStatus: fields.get('VideoStatus') ?? '', receivedAt: new Date().toISOString(), ...check });
      // Answer 200 only to a genuine callback; anything else is refused and the service retries.
      return send(res, check.tokenValid && check.signatureValid ? 200 : 401, 'text/plain; charset=utf-8', check.tokenValid && check.signatureValid ? 'ok' : 'bad signature');
    }

    if (req.method === 'GET' && url.pathname === '/callbacks') return json(res, 200, callbacks);

    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  };

  const server: Server = createServer((req, res) => {
    routes(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String((error as Error)?.message ?? error) });
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
