import type { WidgetLanguage } from '../widgetConfig';
import { LOADER_WORDS } from './loaderWords';
import { AR } from './locales/ar';
import { CS } from './locales/cs';
import { DE } from './locales/de';
import { EN } from './locales/en';
import { ES } from './locales/es';
import { FA } from './locales/fa';
import { FR } from './locales/fr';
import { HE } from './locales/he';
import { HI } from './locales/hi';
import { ID } from './locales/id';
import { IT } from './locales/it';
import { JA } from './locales/ja';
import { KO } from './locales/ko';
import { NL } from './locales/nl';
import { PL } from './locales/pl';
import { PT_BR } from './locales/pt-BR';
import { RU } from './locales/ru';
import { SV } from './locales/sv';
import { TH } from './locales/th';
import { TR } from './locales/tr';
import { UK } from './locales/uk';
import { VI } from './locales/vi';
import { ZH_CN } from './locales/zh-CN';
import { ZH_TW } from './locales/zh-TW';
import { RECORDING_TEXTS } from './recordingTexts';
import type { PageTexts, StringTable, WidgetStrings } from './strings';

/**
 * Every language's page texts. Only the service imports this: it renders the error pages and
 * hands the upload page the one table it speaks (UploadPageBoot.strings), so no browser loads
 * the languages it does not use.
 */
const PAGE_TEXTS: Record<WidgetLanguage, PageTexts> = {
  en: EN,
  'zh-CN': ZH_CN,
  'zh-TW': ZH_TW,
  ja: JA,
  ko: KO,
  es: ES,
  fr: FR,
  de: DE,
  'pt-BR': PT_BR,
  ar: AR,
  it: IT,
  nl: NL,
  pl: PL,
  sv: SV,
  cs: CS,
  tr: TR,
  ru: RU,
  uk: UK,
  vi: VI,
  id: ID,
  th: TH,
  hi: HI,
  he: HE,
  fa: FA,
};

/** One language's every text, with the `strings` option's texts in place of its own. */
export function stringTable(lang: WidgetLanguage, overrides: WidgetStrings = {}): StringTable {
  return { ...LOADER_WORDS[lang], ...PAGE_TEXTS[lang], ...RECORDING_TEXTS[lang], ...overrides };
}
