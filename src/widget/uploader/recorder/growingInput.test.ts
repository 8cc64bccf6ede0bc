import { describe, expect, it } from 'vitest';
import { GrowingInput } from './growingInput';

const text = async (blob: Blob) => await blob.text();

async function opened(input: GrowingInput) {
  return await input.reader.openFile();
}

describe('GrowingInput (the recording as tus input)', () => {
  it('answers a read with what is recorded so far, and a read past the end once the next chunk comes', async () => {
    const input = new GrowingInput('recording.webm', 'video/webm');
    const source = await opened(input);
    input.append(new Blob(['abc']));
    const first = await source.slice(0, Number.POSITIVE_INFINITY);
    expect([await text(first.value), first.done]).toEqual(['abc', false]);

    const next = source.slice(3, Number.POSITIVE_INFINITY);
    expect(input.waiting()).toBe(true);
    input.append(new Blob(['de']));
    const second = await next;
    expect([await text(second.value), second.done, input.waiting()]).toEqual(['de', false, false]);
  });

  it('reads again from any offset (a retry after a cut), up to the chunk size asked for', async () => {
    const input = new GrowingInput('recording.webm', 'video/webm');
    const source = await opened(input);
    for (const part of ['ab', 'cd', 'ef']) input.append(new Blob([part]));
    expect(await text((await source.slice(1, 4)).value)).toBe('bcd');
    expect(await text(input.whole())).toBe('abcdef');
  });

  it('is done only once the take is kept: the last read ends it, with nothing or the rest', async () => {
    const input = new GrowingInput('recording.webm', 'video/webm');
    const source = await opened(input);
    input.append(new Blob(['abc']));
    await source.slice(0, Number.POSITIVE_INFINITY);
    const last = source.slice(3, Number.POSITIVE_INFINITY);
    input.end();
    const ended = await last;
    expect([ended.value.size, ended.done]).toEqual([0, true]);
    // Kept with bytes not yet read: the rest, and done.
    const other = new GrowingInput('b.webm', 'video/webm');
    const otherSource = await opened(other);
    other.append(new Blob(['xyz']));
    other.end();
    const rest = await otherSource.slice(1, Number.POSITIVE_INFINITY);
    expect([await text(rest.value), rest.done]).toEqual(['yz', true]);
  });

  it('answers only the latest read: an older one, of a request that was aborted, never sends', async () => {
    const input = new GrowingInput('recording.webm', 'video/webm');
    const source = await opened(input);
    let older = false;
    void source.slice(0, Number.POSITIVE_INFINITY).then(() => (older = true));
    const latest = source.slice(0, Number.POSITIVE_INFINITY);
    input.append(new Blob(['a']));
    expect(await text((await latest).value)).toBe('a');
    expect(older).toBe(false);
  });
});
