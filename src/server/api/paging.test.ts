import { describe, expect, it } from 'vitest';
import { isServiceError } from '../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, readPaging } from './paging';

const paging = (query: Record<string, string>) => readPaging((name) => query[name]);

describe('readPaging', () => {
  it('defaults to the first page of 10', () => {
    expect(paging({})).toEqual({ pageIndex: 1, pageSize: DEFAULT_PAGE_SIZE });
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(paging({ PageIndex: ' ', PageSize: '' })).toEqual({ pageIndex: 1, pageSize: 10 });
  });

  it('reads both bounds inclusively', () => {
    expect(paging({ PageIndex: '1', PageSize: '1' })).toEqual({ pageIndex: 1, pageSize: 1 });
    expect(paging({ PageIndex: String(MAX_PAGE_INDEX), PageSize: String(MAX_PAGE_SIZE) })).toEqual({
      pageIndex: MAX_PAGE_INDEX,
      pageSize: 100,
    });
    expect(paging({ PageIndex: ' 3 ', PageSize: '007' })).toEqual({ pageIndex: 3, pageSize: 7 });
  });

  it.each([
    ['PageIndex', '0'],
    ['PageIndex', '-1'],
    ['PageIndex', '1.5'],
    ['PageIndex', String(MAX_PAGE_INDEX + 1)],
    ['PageIndex', 'first'],
    ['PageSize', '0'],
    ['PageSize', '101'],
    ['PageSize', '1e2'],
    ['PageSize', '99999999999999999999'],
  ])('refuses %s=%s as 106 naming the parameter', (name, value) => {
    try {
      paging({ [name]: value });
      expect.unreachable();
    } catch (error) {
      expect(isServiceError(error) && error.kind).toBe('INVALID_PARAMETER');
      expect((error as Error).message).toContain(name);
    }
  });
});
