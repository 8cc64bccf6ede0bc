import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What any app backend does with its AppSecret (spec, Authentication): sign its own calls and
 * check the service's callbacks. Written here from the spec, not imported from the service, as a
 * third-party backend would have to.
 */

export interface Signature {
  Timestamp: string;
  Token: string;
}

export function sign(appSecret: string, nowMs = Date.now()): Signature {
  const Timestamp = String(Math.floor(nowMs / 1000));
  return { Timestamp, Token: createHash('md5').update(Timestamp + appSecret, 'utf8').digest('hex') };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface CallbackCheck {
  tokenValid: boolean;
  signatureValid: boolean;
  fresh: boolean;
}

/** Checks a status callback: its Token as the app signs, the body's HMAC (X-Signature), and a timestamp within 600 s. */
export function checkCallback(appSecret: string, body: string, signatureHeader: string | undefined, nowMs = Date.now()): CallbackCheck {
  const fields = new URLSearchParams(body);
  const timestamp = fields.get('Timestamp') ?? '';
  const expectedToken = createHash('md5').update(timestamp + appSecret, 'utf8').digest('hex');
  const expectedSignature = `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
  return {
    tokenValid: sameText(fields.get('Token') ?? '', expectedToken),
    signatureValid: sameText(signatureHeader ?? '', expectedSignature),
    fresh: /^\d+$/.test(timestamp) && Math.abs(Number(timestamp) - nowMs / 1000) <= 600,
  };
}
