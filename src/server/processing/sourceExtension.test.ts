import { describe, expect, it } from 'vitest';
import { sourceExtension } from './sourceExtension';

const url = (text: string) => new URL(text);

describe('sourceExtension', () => {
  it('takes a known video extension from the URL the app gave, ignoring case and query', () => {
    expect(sourceExtension([url('https://cdn.example.com/a/Clip.MOV?sig=1')], 'video/mp4')).toBe('.mov');
  });

  it('falls back to the URL a redirect ended on, then to the Content-Type', () => {
    const first = url('https://example.com/download?id=7');
    expect(sourceExtension([first, url('https://cdn.example.com/x/7.webm')], undefined)).toBe('.webm');
    expect(sourceExtension([first], 'video/x-matroska; charset=binary')).toBe('.mkv');
  });

  it('never takes a non-video extension from the URL, and stores unknown content as .bin', () => {
    expect(sourceExtension([url('https://example.com/get.php')], 'application/octet-stream')).toBe('.bin');
    expect(sourceExtension([url('https://example.com/movie.html')], 'video/mp4')).toBe('.mp4');
    expect(sourceExtension([url('https://example.com/%E0%A4%A.mp4')], undefined)).toBe('.mp4');
  });
});
