import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostMessage, pageMessage } from '../../shared/messages';
import { connectToHost } from './hostLink';

const HOST = 'http://host.test';
const BOOT = { form: 'popup' as const, channel: 'c1', hostOrigin: HOST };

afterEach(() => vi.restoreAllMocks());

/** A window double whose opener is a recording fake, so origin and source can be played. */
function popupWindow() {
  const opener = { postMessage: vi.fn() };
  const win = Object.assign(new EventTarget(), { opener, parent: null as unknown });
  win.parent = win;
  return { opener, win: win as unknown as Window };
}

describe('connectToHost', () => {
  it('posts to the opener with the exact host origin and the channel', () => {
    const { opener, win } = popupWindow();
    connectToHost(BOOT, win).post({ type: 'ready', valid: true });
    expect(opener.postMessage).toHaveBeenCalledWith(pageMessage('c1', { type: 'ready', valid: true }), HOST);
  });

  it('hears close only from the host window, its origin and the channel', () => {
    const { opener, win } = popupWindow();
    const onClose = vi.fn();
    const stop = connectToHost(BOOT, win).onHost(onClose);
    const send = (data: unknown, origin: string, source: unknown) =>
      win.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
    send(hostMessage('c1', 'close'), 'http://evil.test', opener);
    send(hostMessage('c1', 'close'), HOST, {});
    send(hostMessage('c2', 'close'), HOST, opener);
    expect(onClose).not.toHaveBeenCalled();
    send(hostMessage('c1', 'close'), HOST, opener);
    expect(onClose).toHaveBeenCalledExactlyOnceWith('close');
    send(hostMessage('c1', 'askClose'), HOST, opener);
    expect(onClose).toHaveBeenLastCalledWith('askClose');
    stop();
    send(hostMessage('c1', 'close'), HOST, opener);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('posts to the parent in the overlay form', () => {
    const parent = { postMessage: vi.fn() };
    const win = Object.assign(new EventTarget(), { opener: null, parent }) as unknown as Window;
    connectToHost({ ...BOOT, form: 'overlay' }, win).post({ type: 'close' });
    expect(parent.postMessage).toHaveBeenCalledWith(pageMessage('c1', { type: 'close' }), HOST);
  });
});
