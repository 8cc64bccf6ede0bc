import { describe, expect, it } from 'vitest';
import { WIDGET_LANGUAGES } from '../../shared/widgetConfig';
import { stringTable } from '../../shared/i18n/tables';
import { textsFor, type Texts } from './i18n';

describe('textsFor', () => {
  it.each(WIDGET_LANGUAGES)('%s: every text with values fills each of its placeholders, in the order its method takes them', (lang) => {
    const texts = textsFor(stringTable(lang, {}));
    const methods = Object.entries(texts).filter(
      (entry): entry is [string, (...values: string[]) => string] => typeof entry[1] === 'function' && entry[0] !== 'fill',
    );
    expect(methods.length).toBeGreaterThan(15);
    for (const [name, method] of methods) expect(method('«1»', '«2»', '«3»'), name).not.toMatch(/\{\w+\}/);
  });

  it('puts each value where its name is', () => {
    const texts: Texts = textsFor(stringTable('en', {}));
    expect(texts.askReplace('old.mp4', '40%', 'new.mp4')).toBe(
      'The server holds 40% of “old.mp4”. Upload “new.mp4” instead and discard it?',
    );
    expect(texts.ofTotal('1 MB', '2 MB')).toBe('1 MB of 2 MB');
    expect(texts.serverRefused('116')).toContain('(code 116)');
    expect(texts.fill('tooLarge', { name: 'a.mp4', max: '2 GiB' })).toBe('“a.mp4” is larger than the limit of 2 GiB.');
  });
});
