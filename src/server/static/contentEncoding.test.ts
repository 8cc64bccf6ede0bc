import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './contentEncoding';

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', ['br', 'gzip'], 'br'],
    ['gzip, deflate', ['br', 'gzip'], 'gzip'],
    ['br;q=0, gzip', ['br', 'gzip'], 'gzip'],
    ['*', ['br', 'gzip'], 'br'],
    ['*;q=0, gzip', ['br', 'gzip'], 'gzip'],
    ['identity', ['br', 'gzip'], undefined],
    [undefined, ['br', 'gzip'], undefined],
    ['br', ['gzip'], undefined],
    ['BR;Q=0.5', ['br'], 'br'],
  ] as const)('%j with %j gives %j', (header, available, chosen) => {
    expect(chooseEncoding(header, available)).toBe(chosen);
  });
});
