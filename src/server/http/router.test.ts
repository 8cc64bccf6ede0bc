import { describe, expect, it } from 'vitest';
import { isServiceError, type ErrorName } from '../errors';
import { matchRoute, requestUrl, type Handler, type Route } from './router';

const get: Handler = () => {};
const post: Handler = () => {};
const scripts: Handler = () => {};
const routes: Route[] = [
  { method: 'GET', path: '/Api/Video/Get', handler: get },
  { method: 'POST', path: '/Api/Video/Post', handler: post },
  { method: 'ANY', path: '/Scripts/*', handler: scripts },
];

function failure(method: string, path: string): ErrorName | undefined {
  try {
    matchRoute(routes, method, path);
    return undefined;
  } catch (error) {
    return isServiceError(error) ? error.kind : undefined;
  }
}

describe('matchRoute', () => {
  it('finds exact paths by method, and lets HEAD use a GET route', () => {
    expect(matchRoute(routes, 'GET', '/Api/Video/Get').handler).toBe(get);
    expect(matchRoute(routes, 'HEAD', '/Api/Video/Get').handler).toBe(get);
    expect(matchRoute(routes, 'POST', '/Api/Video/Post').handler).toBe(post);
  });

  it('matches a prefix route and its bare folder', () => {
    expect(matchRoute(routes, 'GET', '/Scripts/UploadWidget/initUploadWidget.js').handler).toBe(scripts);
    expect(matchRoute(routes, 'GET', '/Scripts').handler).toBe(scripts);
    expect(failure('GET', '/ScriptsX')).toBe('NOT_FOUND');
  });

  it('answers a known path with another method as 111 and an unknown path as 110', () => {
    expect(failure('GET', '/Api/Video/Post')).toBe('METHOD_NOT_ALLOWED');
    expect(failure('DELETE', '/Api/Video/Get')).toBe('METHOD_NOT_ALLOWED');
    expect(failure('GET', '/api/video/get')).toBe('NOT_FOUND');
    expect(failure('GET', '/Api/Video/Get/')).toBe('NOT_FOUND');
  });
});

describe('requestUrl', () => {
  it('reads origin-form targets as paths, even ones that look like a host', () => {
    expect(requestUrl('/Api/Video/Get?Id=1')?.pathname).toBe('/Api/Video/Get');
    expect(requestUrl('/Api/Video/Get?Id=1')?.searchParams.get('Id')).toBe('1');
    expect(requestUrl('//evil.example/x')?.pathname).toBe('//evil.example/x');
    expect(requestUrl(undefined)?.pathname).toBe('/');
  });

  it('reads absolute-form targets', () => {
    expect(requestUrl('http://video.example/Api/Video/Get')?.pathname).toBe('/Api/Video/Get');
  });

  it('gives undefined, not an exception, for targets that are not URLs', () => {
    expect(requestUrl('http://[')).toBeUndefined();
    expect(requestUrl('http://a:99999/')).toBeUndefined();
  });
});
