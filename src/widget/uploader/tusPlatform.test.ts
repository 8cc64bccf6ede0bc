import { expect, it } from 'vitest';
import TusUrl, { Base64 } from './tusPlatform';

it("encodes a metadata value as js-base64 did: the text's UTF-8, in standard base64 with padding", () => {
  for (const value of ['clip.mp4', 'vidéo – été 東京 🎬.webm', '', 'a', 'ab', '\u{1F600}'])
    expect(Base64.encode(value), value).toBe(Buffer.from(value, 'utf8').toString('base64'));
});

it("resolves the service's Location against the request's URL as url-parse did", () => {
  const endpoint = 'http://127.0.0.1:8080/UploadWidget/files/';
  expect(new TusUrl('/UploadWidget/files/abc', endpoint).toString()).toBe('http://127.0.0.1:8080/UploadWidget/files/abc');
  expect(new TusUrl('abc', endpoint).toString()).toBe('http://127.0.0.1:8080/UploadWidget/files/abc');
  expect(new TusUrl('https://videos.example/files/abc?x=1', endpoint).toString()).toBe('https://videos.example/files/abc?x=1');
});
