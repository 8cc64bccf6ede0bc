import type { IncomingMessage } from 'node:http';

/**
 * A request body as a web stream without a copy of every chunk. Node's `Readable.toWeb` (what
 * @tus/server's request adapter uses) copies each Buffer into a new Uint8Array; here each chunk
 * is a view of the bytes as read from the socket. Nothing detaches them (the file store writes
 * and drops them), so a view is safe. Back-pressure pauses the socket and a cancel
 * destroys the request, as toWeb does. `received` hears of every chunk's size as it arrives.
 */
export function uncopiedBody(req: IncomingMessage, received: (bytes: number) => void = () => {}): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          received(chunk.byteLength);
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => controller.close());
        // A client gone mid-body is an 'error' (ECONNRESET) on the request; tus, listening too, keeps what arrived.
        req.once('error', (error) => controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel(reason) {
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    // As many bytes queued as one socket read: the socket stays paused no longer than needed.
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
