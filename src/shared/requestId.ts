/**
 * The header that names a request, both ways: a proxy in front may set it, and every reply of the
 * service carries it. Quoted to the service's operator, it finds the request in the logs. (Not in
 * apiReplies.ts, whose types the SDK re-exports: a value there would be declared but not shipped.)
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';
