import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

let service: TestService;
let dist: string;

/** Stand-ins for the vite build output, in a temporary DIST_DIR only. */
function writeBuild(dir: string): void {
  mkdirSync(join(dir, 'Scripts', 'UploadWidget'), { recursive: true });
  mkdirSync(join(dir, 'upload'), { recursive: true });
  writeFileSync(join(dir, 'Scripts', 'UploadWidget', 'initUploadWidget.js'), 'window.UploadWidget={};\n');
  writeFileSync(join(dir, 'Scripts', 'UploadWidget', 'initUploadABoxWidget.js'), 'window.UploadABoxWidget={};\n');
  for (const lang of ['en', 'fr', 'zh-TW', 'pt-BR'])
    writeFileSync(join(dir, 'Scripts', 'UploadWidget', `texts-${lang}.js`), `export const lang = '${lang}';\n`);
  writeFileSync(join(dir, 'Scripts', 'secret.js'), 'not for the web\n');
  writeFileSync(join(dir, 'upload', 'uploader-AbC123.js'), 'export {};\n');
  writeFileSync(join(dir, 'upload', 'uploader-AbC123.js.br'), brotliCompressSync('export {};\n'));
  writeFileSync(join(dir, 'upload', 'uploader-AbC123.js.gz'), gzipSync('export {};\n'));
  writeFileSync(join(dir, 'upload', 'uploader-DeF456.css'), '#app{}\n');
  writeFileSync(join(dir, 'upload', 'notes.txt'), 'not served\n');
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'ovu-dist-'));
  writeBuild(dist);
  service = await startTestService({ config: { distDir: dist } });
});
afterAll(async () => {
  await service.stop(true);
  rmSync(dist, { recursive: true, force: true });
});

/** A raw request, so the path reaches the service exactly as written (fetch would normalise `..`). */
function rawGet(path: string): Promise<number> {
  const { hostname, port } = new URL(service.address);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the loader scripts', () => {
  it('are served as JavaScript any site may load, revalidated by ETag', async () => {
    for (const name of ['initUploadWidget.js', 'initUploadABoxWidget.js']) {
      const res = await fetch(`${service.address}/Scripts/UploadWidget/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      // Fixed URLs: reused briefly, then revalidated, so a deploy reaches every host page within minutes.
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await res.text()).toMatch(/^window\.Upload/);
    }
  });

  it("answer a language tag's words with those of the language the uploader picks for it", async () => {
    const wordsFor = async (tag: string) => (await fetch(`${service.address}/Scripts/UploadWidget/texts-${tag}.js`)).text();
    expect(await wordsFor('fr')).toContain("'fr'");
    expect(await wordsFor('fr-CA')).toContain("'fr'");
    expect(await wordsFor('zh-HK')).toContain("'zh-TW'");
    expect(await wordsFor('pt-PT')).toContain("'pt-BR'");
    expect(await wordsFor('kok')).toContain("'en'");
    expect(await wordsFor('')).toContain("'en'");
  });

  it('answer 304 while unchanged and the new file once rebuilt', async () => {
    const url = `${service.address}/Scripts/UploadWidget/initUploadWidget.js`;
    const etag = (await fetch(url)).headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const unchanged = await fetch(url, { headers: { 'If-None-Match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    writeFileSync(join(dist, 'Scripts', 'UploadWidget', 'initUploadWidget.js'), 'window.UploadWidget={v:2};\n');
    const rebuilt = await fetch(url, { headers: { 'If-None-Match': etag } });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.headers.get('etag')).not.toBe(etag);
    expect(await rebuilt.text()).toContain('v:2');
  });
});

/** A raw GET with these headers: fetch would decompress and hide Content-Encoding's effect. */
function rawFetch(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(service.address);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the upload page assets', () => {
  it('are served same-origin with their content types, cached for good under their hashed names', async () => {
    const js = await fetch(`${service.address}/UploadWidget/assets/uploader-AbC123.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('access-control-allow-origin')).toBeNull();
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await fetch(`${service.address}/UploadWidget/assets/uploader-DeF456.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it("come as the build's brotli or gzip copy as Accept-Encoding allows, each with its own ETag", async () => {
    const path = '/UploadWidget/assets/uploader-AbC123.js';
    const br = await rawFetch(path, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body).toEqual(brotliCompressSync('export {};\n'));
    const gz = await rawFetch(path, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe('export {};\n');
    const plain = await rawFetch(path, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe('export {};\n');
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    expect((await rawFetch(path, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) })).status).toBe(304);
    expect((await rawFetch(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(br.headers.etag) })).status).toBe(200);
  });

  it('never serves a compressed copy older than the file (left by an earlier build)', async () => {
    const path = '/UploadWidget/assets/uploader-AbC123.js';
    writeFileSync(join(dist, 'upload', 'uploader-AbC123.js'), 'export const v = 2;\n');
    const res = await rawFetch(path, { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('export const v = 2;\n');
  });
});

describe('what is not served', () => {
  it('no file outside the two directories, no other file types, no hidden names', async () => {
    expect(await rawGet('/Scripts/UploadWidget/../secret.js')).toBe(404);
    expect(await rawGet('/Scripts/UploadWidget/..%2fsecret.js')).toBe(404);
    expect(await rawGet('/Scripts/UploadWidget/%2e%2e/secret.js')).toBe(404);
    expect(await rawGet('/UploadWidget/assets/..%2f..%2fScripts%2fsecret.js')).toBe(404);
    expect(await rawGet('/UploadWidget/assets/notes.txt')).toBe(404);
    expect(await rawGet('/UploadWidget/assets/.uploader.js')).toBe(404);
    expect(await rawGet('/UploadWidget/assets/uploader-AbC123.js.br')).toBe(404);
    expect(await rawGet('/UploadWidget/assets/')).toBe(404);
  });

  it('says to run the build when the build output is missing', async () => {
    const unbuilt = await startTestService({ config: { distDir: join(dist, 'nothing-here') } });
    try {
      const res = await fetch(`${unbuilt.address}/Scripts/UploadWidget/initUploadWidget.js`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { AuthMsg: { ResultCode: string; ResultMessage: string } };
      expect(body.AuthMsg.ResultCode).toBe('110');
      expect(body.AuthMsg.ResultMessage).toContain('run `npm run build`');
    } finally {
      await unbuilt.stop(true);
    }
  });
});
