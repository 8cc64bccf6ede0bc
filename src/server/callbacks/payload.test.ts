import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenMatches } from '../auth/token';
import { callbackRequest, signBody } from './payload';

const app = { appId: 'app-a', appSecret: 'secret-of-app-a-0123456789' };

describe('callbackRequest', () => {
  it('posts the five fields, with a Token the app can check as it checks its own', () => {
    const { body } = callbackRequest(app, 'v-1', 7, 1_700_000_000_999);
    const fields = Object.fromEntries(new URLSearchParams(body));
    expect(Object.keys(fields)).toEqual(['VideoId', 'VideoStatus', 'AppId', 'Timestamp', 'Token']);
    expect(fields).toMatchObject({ VideoId: 'v-1', VideoStatus: '7', AppId: 'app-a', Timestamp: '1700000000' });
    expect(tokenMatches(fields.Token!, fields.Timestamp!, app.appSecret)).toBe(true);
    expect(body).not.toContain(app.appSecret);
  });

  it('signs the exact body bytes, so any change to them fails the check', () => {
    const { body, signature } = callbackRequest(app, 'v-1', 1, 1_700_000_000_000);
    const expected = `sha256=${createHmac('sha256', app.appSecret).update(body).digest('hex')}`;
    expect(timingSafeEqual(Buffer.from(signature), Buffer.from(expected))).toBe(true);
    expect(signBody(body.replace('VideoStatus=1', 'VideoStatus=4'), app.appSecret)).not.toBe(signature);
    expect(signBody(body, 'another-secret-0123456789')).not.toBe(signature);
  });
});
