import { listenLoopback, readBody } from './httpServer';

export interface ReceivedCallback {
  fields: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** Resolves with the first callback for the video that satisfies `match`. */
  waitFor(videoId: string, match?: (callback: ReceivedCallback) => boolean, timeoutMs?: number): Promise<ReceivedCallback>;
  close(): Promise<void>;
}

/** The app backend's callback endpoint: records every POST and answers 200. */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const waiters = new Set<() => void>();
  const loopback = await listenLoopback(async (req, res) => {
    const body = await readBody(req);
    if (req.method === 'POST') {
      received.push({ fields: Object.fromEntries(new URLSearchParams(body)), headers: req.headers, body });
      for (const wake of waiters) wake();
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  return {
    url: `http://127.0.0.1:${loopback.port}/callback`,
    received,
    waitFor(videoId, match = () => true, timeoutMs = 90_000) {
      const find = () => received.find((callback) => callback.fields.VideoId === videoId && match(callback));
      return new Promise((done, reject) => {
        const check = () => {
          const hit = find();
          if (!hit) return;
          clearTimeout(timer);
          waiters.delete(check);
          done(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no callback for video ${videoId} within ${timeoutMs} ms; received: ${JSON.stringify(received.map((c) => c.fields))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => loopback.close(),
  };
}
