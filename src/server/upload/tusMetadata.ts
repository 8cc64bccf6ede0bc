import { ServiceError } from '../errors';
import { controlCharacterProblem } from '../http/params';

/** A pair as tus accepts it: an ASCII key without spaces or commas, then standard base64. */
const KEY = /^[\x21-\x2b\x2d-\x7e]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// A leading U+FEFF is part of the value, as for the API's forms.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Refuses an `Upload-Metadata` value that is not UTF-8 once base64-decoded with 106 naming its
 * key: @tus/server decodes values leniently, so the file name would be stored with U+FFFD in
 * place of the bytes. A control character is refused as in the API's parameters (http/params.ts),
 * as the file name is stored as text. A header of another shape is left to tus, which refuses it as malformed.
 */
export function checkMetadataText(header: string | undefined): void {
  for (const pair of header?.split(',') ?? []) {
    const [key = '', value, ...rest] = pair.split(' ');
    if (value === undefined || rest.length > 0 || !KEY.test(key) || !BASE64.test(value)) continue;
    let text: string;
    try {
      text = STRICT_UTF8.decode(Buffer.from(value, 'base64'));
    } catch {
      throw new ServiceError('INVALID_PARAMETER', `Upload-Metadata ${key} is not valid UTF-8`);
    }
    const problem = controlCharacterProblem(`Upload-Metadata ${key}`, text);
    if (problem !== undefined) throw new ServiceError('INVALID_PARAMETER', problem);
  }
}
