import { describe, expect, it } from 'vitest';
import { hostMessage, isHostMessage, isPageMessage, pageMessage, PROTOCOL } from './messages';

const info = { videoId: 'v-1', fileName: 'a.mp4', fileSize: 10 };

describe('isPageMessage', () => {
  it.each([
    pageMessage('c1', { type: 'ready', valid: true }),
    pageMessage('c1', { type: 'uploading', busy: false }),
    pageMessage('c1', { type: 'success', info }),
    pageMessage('c1', { type: 'failure', info: { videoId: 'v-1', reason: 'validation', code: '104', message: 'App SecretKey Error' } }),
    pageMessage('c1', { type: 'error', info: { ...info, reason: 'network', message: 'lost', bytesUploaded: 4 } }),
    pageMessage('c1', { type: 'close' }),
    pageMessage('c1', { type: 'progress', info: { bytesUploaded: 5, bytesTotal: 10 } }),
    pageMessage('c1', { type: 'state', info: { state: 'retrying' } }),
    pageMessage('c1', { type: 'processed', info: { videoId: 'v-1', status: 4 } }),
  ])('accepts a well-formed %j', (message) => {
    expect(isPageMessage(message, 'c1')).toBe(true);
  });

  it.each([
    ['another channel', pageMessage('c2', { type: 'success', info })],
    ['another protocol', { protocol: 'x/1', channel: 'c1', type: 'success', info }],
    ['no envelope', { type: 'success', info }],
    ['a string', JSON.stringify(pageMessage('c1', { type: 'success', info }))],
    ['null', null],
    ['an unknown type', { protocol: PROTOCOL, channel: 'c1', type: 'eval' }],
    ['a success without a size', { protocol: PROTOCOL, channel: 'c1', type: 'success', info: { videoId: 'v', fileName: 'a' } }],
    [
      'a failure with an unknown reason',
      { protocol: PROTOCOL, channel: 'c1', type: 'failure', info: { videoId: 'v', reason: 'nope', message: '' } },
    ],
    [
      'an error that is not a network error',
      { protocol: PROTOCOL, channel: 'c1', type: 'error', info: { videoId: 'v', reason: 'closed', message: '' } },
    ],
    [
      'an info field of the wrong type',
      { protocol: PROTOCOL, channel: 'c1', type: 'failure', info: { videoId: 'v', reason: 'server', message: '', code: 107 } },
    ],
    ['ready without valid', { protocol: PROTOCOL, channel: 'c1', type: 'ready' }],
    ['progress without a total', { protocol: PROTOCOL, channel: 'c1', type: 'progress', info: { bytesUploaded: 5 } }],
    ['progress as text', { protocol: PROTOCOL, channel: 'c1', type: 'progress', info: { bytesUploaded: '5', bytesTotal: 10 } }],
    ['an unknown state', { protocol: PROTOCOL, channel: 'c1', type: 'state', info: { state: 'uploading' } }],
    ['a status that is no outcome', { protocol: PROTOCOL, channel: 'c1', type: 'processed', info: { videoId: 'v', status: 5 } }],
    ['processed without a video', { protocol: PROTOCOL, channel: 'c1', type: 'processed', info: { status: 1 } }],
  ])('drops %s', (_case, data) => {
    expect(isPageMessage(data, 'c1')).toBe(false);
  });
});

describe('isHostMessage', () => {
  it('accepts close and askClose on its channel only', () => {
    expect(isHostMessage(hostMessage('c1', 'close'), 'c1')).toBe(true);
    expect(isHostMessage(hostMessage('c1', 'askClose'), 'c1')).toBe(true);
    expect(isHostMessage({ protocol: PROTOCOL, channel: 'c1', type: 'eval' }, 'c1')).toBe(false);
    expect(isHostMessage(hostMessage('c1', 'close'), 'c2')).toBe(false);
    expect(isHostMessage(pageMessage('c1', { type: 'ready', valid: true }), 'c1')).toBe(false);
  });
});
