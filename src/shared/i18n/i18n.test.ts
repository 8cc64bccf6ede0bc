import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageOf, RTL_LANGUAGES, WIDGET_LANGUAGES } from '../widgetConfig';
import { decodeStrings, MAX_STRING_LENGTH } from './checkStrings';
import { fillIn, placeholdersOf, type StringKey } from './strings';
import { stringTable } from './tables';

const ENGLISH = stringTable('en');
const KEYS = Object.keys(ENGLISH).sort();

describe('the languages', () => {
  it('are at least 24, each a language of its own, each complete (below)', () => {
    // The list itself is written once, in widgetConfig.ts; tables.ts must give each its texts.
    expect(WIDGET_LANGUAGES.length).toBeGreaterThanOrEqual(24);
    expect(new Set(WIDGET_LANGUAGES.map((lang) => JSON.stringify(stringTable(lang)))).size).toBe(WIDGET_LANGUAGES.length);
  });

  it('are laid out right to left where the script is: Arabic, Hebrew and Persian', () => {
    expect(WIDGET_LANGUAGES.filter((lang) => RTL_LANGUAGES.includes(lang))).toEqual(['ar', 'he', 'fa']);
  });
});

describe('every language', () => {
  it.each(WIDGET_LANGUAGES.filter((lang) => lang !== 'en'))('%s has every key, no other, each with the English placeholders', (lang) => {
    const table = stringTable(lang);
    expect(Object.keys(table).sort(), 'keys').toEqual(KEYS);
    for (const key of KEYS as StringKey[]) {
      expect(table[key].trim(), `${lang}.${key} is empty`).not.toBe('');
      expect(placeholdersOf(table[key]), `${lang}.${key}: ${table[key]}`).toEqual(placeholdersOf(ENGLISH[key]));
    }
  });

  it('is translated: no text is the English one but units and figures the languages share, and words they share', () => {
    // Values that really are the same in other languages: the IEC units, SI symbols, the speed's form.
    const shared = new Set(['B', 'KiB', 'MiB', 'GiB', 'TiB', 'h', 'min', 's', '{perSecond}/s']);
    const same = (lang: (typeof WIDGET_LANGUAGES)[number]) =>
      (KEYS as StringKey[]).filter((key) => stringTable(lang)[key] === ENGLISH[key] && !shared.has(ENGLISH[key]));
    expect(Object.fromEntries(WIDGET_LANGUAGES.filter((lang) => lang !== 'en').map((lang) => [lang, same(lang)]))).toEqual({
      'zh-CN': [],
      'zh-TW': [],
      ja: [],
      ko: [],
      es: [],
      fr: ['pause'],
      de: [],
      'pt-BR': [],
      ar: [],
      it: [],
      nl: [],
      pl: [],
      sv: [],
      cs: [],
      tr: [],
      ru: [],
      uk: [],
      vi: [],
      id: [],
      th: [],
      hi: [],
      he: [],
      fa: [],
    });
  });

  it('is listed in docs/widget.md with its English text', () => {
    const docs = readFileSync(resolve(import.meta.dirname, '../../../docs/widget.md'), 'utf8');
    for (const key of KEYS as StringKey[]) expect(docs, key).toContain(`| \`${key}\` | ${ENGLISH[key]} |`);
  });
});

describe('fillIn', () => {
  it('puts each value in its placeholder and leaves unknown ones as written', () => {
    expect(fillIn('“{name}”: {percent} uploaded, {other}', { name: 'a.mp4', percent: '5%' })).toBe('“a.mp4”: 5% uploaded, {other}');
  });
});

describe('languageOf', () => {
  it.each([
    ['ja-JP', 'ja'],
    ['ko', 'ko'],
    ['es-419', 'es'],
    ['fr-CA', 'fr'],
    ['de-AT', 'de'],
    ['pt-PT', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['ar-EG', 'ar'],
    ['zh-Hant-HK', 'zh-TW'],
    ['zh', 'zh-CN'],
    ['it-IT', 'it'],
    ['nl-BE', 'nl'],
    ['sv-FI', 'sv'],
    ['fi-FI', 'en'],
    ['ru-UA', 'ru'],
    ['uk', 'uk'],
    ['id-ID', 'id'],
    ['th-TH', 'th'],
    ['hi-IN', 'hi'],
    ['he-IL', 'he'],
    ['fa-IR', 'fa'],
    ['kok', 'en'],
    ['', 'en'],
  ])('%s → %s', (tag, lang) => expect(languageOf(tag)).toBe(lang));
});

describe("the service's check of `strings`", () => {
  it('takes texts by key', () => {
    expect(decodeStrings('{"choose":"Pick a clip","uploading":"Sending {name}"}')).toEqual({
      ok: true,
      strings: { choose: 'Pick a clip', uploading: 'Sending {name}' },
    });
  });

  it.each([
    ['not json', 'strings must be an object of texts by key (JSON on the page address)'],
    ['["choose"]', 'strings must be an object of texts by key, got a list'],
    ['"choose"', 'strings must be an object of texts by key, got a string'],
    ['{"chose":"Pick"}', 'strings.chose is not a text key (docs/widget.md lists them)'],
    ['{"choose":7}', 'strings.choose must be a string, got a number'],
    [
      `{"choose":"${'x'.repeat(MAX_STRING_LENGTH + 1)}"}`,
      `strings.choose must be at most ${MAX_STRING_LENGTH} characters, got ${MAX_STRING_LENGTH + 1}`,
    ],
    ['{"uploading":"Sending {nmae}"}', 'strings.uploading has the placeholder {nmae}; its placeholders are {name}'],
    ['{"choose":"Pick {name}"}', 'strings.choose has the placeholder {name}; its placeholders are none'],
  ])('refuses %s', (raw, detail) => {
    expect(decodeStrings(raw)).toEqual({ ok: false, detail });
  });
});
