import { describe, expect, it } from 'vitest';
import { RESULT_CODES, type FailureCode } from './resultCodes';
import type { UploadFailureInfo, UploadWidgetError } from './widgetConfig';

describe('the result codes', () => {
  it('give each outcome a code of its own, so a client can tell any two apart', () => {
    const codes = Object.values(RESULT_CODES).map((row) => row.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((code) => /^(1|[1-9]\d\d)$/.test(code))).toBe(true);
  });

  it("type a failure's code as a code of the table, a file check or the widget's own, and nothing else", () => {
    const accepted: UploadFailureInfo['code'][] = ['116', '500', 'tooLong', 'unreachable', 'config', undefined];
    // @ts-expect-error no row of the table has it.
    const unknownCode: UploadFailureInfo['code'] = '999';
    // @ts-expect-error success is no failure's code.
    const success: FailureCode = '1';
    // @ts-expect-error `done`'s rejection speaks the same three lists.
    const misspelt: UploadWidgetError['code'] = 'toolong';
    expect([...accepted, unknownCode, success, misspelt]).toHaveLength(9);
  });
});
