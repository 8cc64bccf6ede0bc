import type { GrowingFile } from '../uploadCore';

type Slice = { value: Blob; done: boolean };

/**
 * A recording as tus-js-client's input while it is being made: the recorder appends its chunks,
 * the upload reads from any offset (a retry starts again from what the service confirmed), and a
 * read past the end waits for the next chunk. The length is declared only at `end()`, when the
 * person keeps the take: until then the last read waits, so the service never completes a take
 * that may still be dropped.
 *
 * Every chunk stays in memory until the take is kept or dropped: the review plays the whole take
 * and the upload may have to send any part of it again. Chromium moves large blobs to disk by
 * itself; no copy is made in IndexedDB (docs/widget.md, "Recording").
 */
export class GrowingInput implements GrowingFile {
  private chunks: Blob[] = [];
  private size = 0;
  private ended = false;
  /** The read waiting for more: only the latest counts, an older one (of an aborted request) is never answered. */
  private pending: { start: number; end: number; answer: (slice: Slice) => void } | undefined;

  constructor(
    readonly name: string,
    readonly type: string,
  ) {}

  /** The recorder's next chunk. */
  append(chunk: Blob): void {
    if (this.ended || chunk.size === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.size;
    this.answer();
  }

  /** The take is kept: the upload sends the rest and declares the length. */
  end(): void {
    this.ended = true;
    this.answer();
  }

  /** Whether the upload is waiting for the recording (not for the network). */
  waiting(): boolean {
    return this.pending !== undefined;
  }

  /** The whole take, the same bytes the upload sends. */
  whole(): Blob {
    return new Blob(this.chunks, { type: this.type });
  }

  readonly reader = {
    openFile: async () => ({
      // Unknown until `end()`; tus-js-client does not read it when the length is deferred.
      size: 0,
      slice: (start: number, end: number) =>
        new Promise<Slice>((answer) => {
          this.pending = { start, end, answer };
          this.answer();
        }),
      close: () => {},
    }),
  };

  private answer(): void {
    const read = this.pending;
    if (!read || (read.start >= this.size && !this.ended)) return;
    this.pending = undefined;
    const stop = Math.min(read.end, this.size);
    read.answer({ value: this.whole().slice(read.start, stop), done: this.ended && stop >= this.size });
  }
}
