import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One S3 call as it crossed the wire (path-style addressing: `/<bucket>/<key>`). */
export interface S3Call {
  /** The S3 operation, told from the method, the query and the headers. */
  op: string;
  key: string;
  /** The request body's declared length (Content-Length; 0 without one). */
  bytes: number;
  /** Milliseconds (performance.now()) when the request arrived and when its reply ended. */
  start: number;
  end?: number;
  status?: number;
}

/** `request`: never passed on (the bucket never sees it); `reply`: passed on, its reply kept from the client. */
type Hold = 'request' | 'reply';

/** A recording HTTP proxy of our own on 127.0.0.1 in front of the test S3 server; it can hold a chosen call. */
export interface S3Proxy {
  /** http://127.0.0.1:<port>, for S3_ENDPOINT. */
  endpoint: string;
  /** Every call so far, in arrival order. */
  calls: S3Call[];
  /** The most calls of `op` that were under way at once. */
  peakInFlight(op: string): number;
  /** From now on, holds the first call `match` picks as `how` says; resolves with it once held. */
  holdNext(match: (call: S3Call) => boolean, how: Hold): Promise<S3Call>;
  /** Delays every call `match` picks by `ms` before passing it on (a slow bucket). */
  slow(match: (call: S3Call) => boolean, ms: number): void;
  close(): Promise<void>;
}

/** The operation of an S3 request, from what the SDK puts on the wire. */
function s3Operation(method: string, url: URL, headers: IncomingMessage['headers']): string {
  const has = (name: string) => url.searchParams.has(name);
  const onBucket = url.pathname.split('/').filter(Boolean).length <= 1;
  switch (method) {
    case 'GET':
      if (onBucket) return has('uploads') ? 'ListMultipartUploads' : 'ListObjects';
      return has('uploadId') ? 'ListParts' : 'GetObject';
    case 'HEAD':
      return onBucket ? 'HeadBucket' : 'HeadObject';
    case 'PUT':
      if (has('partNumber')) return headers['x-amz-copy-source'] ? 'UploadPartCopy' : 'UploadPart';
      if (onBucket) return 'CreateBucket';
      return headers['x-amz-copy-source'] ? 'CopyObject' : 'PutObject';
    case 'POST':
      if (has('uploads')) return 'CreateMultipartUpload';
      if (has('uploadId')) return 'CompleteMultipartUpload';
      return has('delete') ? 'DeleteObjects' : 'Post';
    case 'DELETE':
      return has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
    default:
      return method;
  }
}

export async function startS3Proxy(target: string): Promise<S3Proxy> {
  const upstream = new URL(target);
  const calls: S3Call[] = [];
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const holds: { match: (call: S3Call) => boolean; how: Hold; held: (call: S3Call) => void }[] = [];
  const slow: { match: (call: S3Call) => boolean; ms: number }[] = [];
  const sockets = new Set<Socket>();

  const pass = (req: IncomingMessage, res: ServerResponse, call: S3Call, holdReply: boolean) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        call.status = reply.statusCode;
        if (holdReply) return; // the reply never reaches the client
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const call: S3Call = {
      op: s3Operation(req.method ?? 'GET', url, req.headers),
      key: decodeURIComponent(url.pathname.split('/').slice(2).join('/')),
      bytes: Number(req.headers['content-length'] ?? 0),
      start: performance.now(),
    };
    calls.push(call);
    const running = (inFlight.get(call.op) ?? 0) + 1;
    inFlight.set(call.op, running);
    peaks.set(call.op, Math.max(peaks.get(call.op) ?? 0, running));
    res.on('close', () => {
      call.end = performance.now();
      inFlight.set(call.op, (inFlight.get(call.op) ?? 1) - 1);
    });
    const holdAt = holds.findIndex((hold) => hold.match(call));
    const hold = holdAt === -1 ? undefined : holds.splice(holdAt, 1)[0];
    const delay = slow.find((rule) => rule.match(call))?.ms ?? 0;
    hold?.held(call);
    if (hold?.how === 'request') return; // read nothing, answer nothing: the bucket never sees it
    setTimeout(() => pass(req, res, call, hold?.how === 'reply'), delay);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    peakInFlight: (op) => peaks.get(op) ?? 0,
    holdNext: (match, how) => new Promise((held) => holds.push({ match, how, held })),
    slow: (match, ms) => slow.push({ match, ms }),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
