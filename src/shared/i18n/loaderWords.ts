import type { WidgetLanguage } from '../widgetConfig';
import { AR_WORDS } from './locales/ar';
import { CS_WORDS } from './locales/cs';
import { DE_WORDS } from './locales/de';
import { EN_WORDS } from './locales/en';
import { ES_WORDS } from './locales/es';
import { FA_WORDS } from './locales/fa';
import { FR_WORDS } from './locales/fr';
import { HE_WORDS } from './locales/he';
import { HI_WORDS } from './locales/hi';
import { ID_WORDS } from './locales/id';
import { IT_WORDS } from './locales/it';
import { JA_WORDS } from './locales/ja';
import { KO_WORDS } from './locales/ko';
import { NL_WORDS } from './locales/nl';
import { PL_WORDS } from './locales/pl';
import { PT_BR_WORDS } from './locales/pt-BR';
import { RU_WORDS } from './locales/ru';
import { SV_WORDS } from './locales/sv';
import { TH_WORDS } from './locales/th';
import { TR_WORDS } from './locales/tr';
import { UK_WORDS } from './locales/uk';
import { VI_WORDS } from './locales/vi';
import { ZH_CN_WORDS } from './locales/zh-CN';
import { ZH_TW_WORDS } from './locales/zh-TW';

/**
 * The words the loader's parts show before or without the upload page: the overlay's labels, the
 * message of a widget closed with nothing uploaded, and the loader's own error page. Each
 * language's are beside its page texts (locales/), exported apart, so that the script loaders
 * fetch one language's words (Scripts/UploadWidget/texts-<lang>.js) and nothing more.
 */
export interface LoaderWords {
  /** The overlay's label and the upload page's title. */
  dialog: string;
  close: string;
  closed: string;
  /** The npm module's `config()` (DeferredConfig): the line shown while it runs, and its failure. */
  configWaiting: string;
  configFailed: string;
  /** The heading of both error pages (the service's and the loader's). */
  errorHeading: string;
  /** The loader's error page: what the site owner can do about a setting it refused. */
  adviceSetting: string;
}

export const LOADER_WORDS: Record<WidgetLanguage, LoaderWords> = {
  en: EN_WORDS,
  'zh-CN': ZH_CN_WORDS,
  'zh-TW': ZH_TW_WORDS,
  ja: JA_WORDS,
  ko: KO_WORDS,
  es: ES_WORDS,
  fr: FR_WORDS,
  de: DE_WORDS,
  'pt-BR': PT_BR_WORDS,
  ar: AR_WORDS,
  it: IT_WORDS,
  nl: NL_WORDS,
  pl: PL_WORDS,
  sv: SV_WORDS,
  cs: CS_WORDS,
  tr: TR_WORDS,
  ru: RU_WORDS,
  uk: UK_WORDS,
  vi: VI_WORDS,
  id: ID_WORDS,
  th: TH_WORDS,
  hi: HI_WORDS,
  he: HE_WORDS,
  fa: FA_WORDS,
};
