import { ServiceError } from '../errors';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Keeps OFFSET well inside SQLite's integer range whatever a caller asks for. */
export const MAX_PAGE_INDEX = 1_000_000;

export interface Paging {
  /** 1-based. */
  pageIndex: number;
  pageSize: number;
}

function wholeNumber(raw: string | undefined, name: string, fallback: number, max: number): number {
  const text = raw?.trim();
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new ServiceError('INVALID_PARAMETER', `${name} must be a whole number from 1 to ${max}`);
  }
  return Number(text);
}

/** `PageIndex` (1-based, default 1) and `PageSize` (default 10, at most 100); anything else is 106, never guessed. */
export function readPaging(param: (name: string) => string | undefined): Paging {
  return {
    pageIndex: wholeNumber(param('PageIndex'), 'PageIndex', 1, MAX_PAGE_INDEX),
    pageSize: wholeNumber(param('PageSize'), 'PageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
}
