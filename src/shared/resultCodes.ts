/**
 * The service's result codes, one per outcome: ResultCode "1" is success, every other code one
 * distinct failure, with the message the service sends when it has no detail to add (spec, error
 * table). The service builds its replies from this table (`src/server/errors.ts` adds each row's
 * HTTP status), the SDK's `ApiError` carries these codes, and the widget compares the few it
 * reacts to.
 *
 * The browser's code names a code by its type, `ResultCodeOf<'WRONG_STATE'>`, rather than by this
 * object: the compiler holds its literal to the table, and the loaders, a few bytes under their
 * budget, carry no table.
 */
export const RESULT_CODES = {
  OK: { code: '1', message: 'OK' },
  MISSING_PARAMETER: { code: '101', message: 'Missing Parameter' },
  UNKNOWN_APP: { code: '102', message: 'AppId Not Exist' },
  TIMESTAMP_OUT_OF_RANGE: { code: '103', message: 'Timestamp Expired' },
  BAD_TOKEN: { code: '104', message: 'App SecretKey Error' },
  UNKNOWN_VIDEO: { code: '105', message: 'Video Not Exist' },
  INVALID_PARAMETER: { code: '106', message: 'Invalid Parameter' },
  WRONG_STATE: { code: '107', message: 'Video Status Error' },
  NO_PERMISSION: { code: '108', message: 'No Permission' },
  PAYLOAD_TOO_LARGE: { code: '109', message: 'Payload Too Large' },
  NOT_FOUND: { code: '110', message: 'Not Found' },
  METHOD_NOT_ALLOWED: { code: '111', message: 'Method Not Allowed' },
  FILE_TOO_LARGE: { code: '112', message: 'File Too Large' },
  NO_SPACE: { code: '113', message: 'Insufficient Storage' },
  DATABASE_UNAVAILABLE: { code: '114', message: 'Database Unavailable' },
  STORAGE_UNAVAILABLE: { code: '115', message: 'Storage Unavailable' },
  TOO_MANY_REQUESTS: { code: '116', message: 'Too Many Requests' },
  INTERNAL: { code: '500', message: 'Internal Error' },
} as const satisfies Record<string, { code: string; message: string }>;

/** A row's name, e.g. `'WRONG_STATE'`. */
export type ResultName = keyof typeof RESULT_CODES;

/** The code of the row `Name`, e.g. `ResultCodeOf<'WRONG_STATE'>` is `'107'`. */
export type ResultCodeOf<Name extends ResultName> = (typeof RESULT_CODES)[Name]['code'];

/** Every code a failed reply may carry: `'101'` … `'116'` and `'500'`. */
export type FailureCode = ResultCodeOf<Exclude<ResultName, 'OK'>>;
