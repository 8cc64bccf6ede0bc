import { describe, expect, it } from 'vitest';
import { callbackRequest } from '../server/callbacks/payload';
import { CallbackError } from './errors';
import { verifyCallback, type VerifyCallbackOptions } from './verifyCallback';

const APP = { appId: 'shop', appSecret: 'secret-of-the-shop-0123456789' };

function refusal(check: () => unknown): CallbackError {
  try {
    check();
  } catch (error) {
    if (error instanceof CallbackError) return error;
    throw new Error(`threw ${(error as Error).name} instead of a CallbackError: ${(error as Error).message}`);
  }
  throw new Error('did not throw');
}

describe('verifyCallback', () => {
  const { body, signature } = callbackRequest(APP, 'v-1', 1, Date.now());

  it('answers every argument of the wrong shape with the invalid-input CallbackError, naming it', () => {
    const bad: [unknown, unknown, string][] = [
      [body, { ...APP, headers: null }, 'headers'],
      [body, { ...APP, headers: 'x-signature: abc' }, 'headers'],
      [body, { ...APP, headers: { 'x-signature': 42 } }, 'headers'],
      [body, { ...APP, headers: { get: () => 42 } }, 'headers'],
      [body, { ...APP, allowUnsigned: 'yes' }, 'allowUnsigned'],
      [body, null, 'options'],
      [body, undefined, 'options'],
      [body, { ...APP, appSecret: '' }, 'appSecret'],
      [body, { appSecret: APP.appSecret }, 'appId'],
      [null, { ...APP, headers: { 'x-signature': signature } }, 'body'],
      [42, { ...APP, headers: { 'x-signature': signature } }, 'body'],
      [{ VideoId: { $ne: '' } }, { ...APP, headers: { 'x-signature': signature } }, 'body'],
    ];
    for (const [input, options, field] of bad) {
      expect(refusal(() => verifyCallback(input as string, options as VerifyCallbackOptions))).toMatchObject({
        name: 'CallbackError',
        code: 'invalid-input',
        field,
      });
    }
  });

  it('still accepts the genuine callback with headers as Node or fetch gives them', () => {
    expect(verifyCallback(body, { ...APP, headers: { 'X-Signature': signature } })).toEqual({ videoId: 'v-1', videoStatus: 1 });
    expect(verifyCallback(body, { ...APP, headers: new Headers({ 'x-signature': signature }) })).toEqual({
      videoId: 'v-1',
      videoStatus: 1,
    });
  });
});
