import { describe, expect, it } from 'vitest';
import { createLogger, withLogFields } from './log';

describe('log lines', () => {
  it('are one JSON object each for a collector, with the fields of the work they belong to', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), 'info', 'json');
    withLogFields({ requestId: 'r-1' }, () => log.warn('upload refused', { code: '116', appId: 'shop' }));
    log.debug('not written');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', message: 'upload refused', requestId: 'r-1', code: '116', appId: 'shop' });
  });

  it('read as text at a terminal: time, level, message, then key=value (quoted when needed)', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), 'info', 'text');
    log.error('database outage', { part: 'database', reason: 'the database cannot be reached', attempts: 3 });
    expect(lines[0]).toMatch(
      /^\d{2}:\d{2}:\d{2}\.\d{3} ERROR database outage part=database reason="the database cannot be reached" attempts=3$/,
    );
  });
});
