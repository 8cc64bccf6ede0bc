import type { RecordingKey, StringTable, WidgetStrings } from '../../shared/i18n/strings';
import type { WidgetLanguage } from '../../shared/widgetConfig';

/**
 * Each language's page texts as its own chunk (`locale-<lang>`), so the page loads only the one it
 * speaks; the service names that chunk in a `modulepreload` link, so it arrives with the page's code.
 */
const LOCALES: Record<WidgetLanguage, () => Promise<Omit<StringTable, RecordingKey>>> = {
  en: () => import('../../shared/i18n/locales/en').then((module) => ({ ...module.EN_WORDS, ...module.EN })),
  'zh-CN': () => import('../../shared/i18n/locales/zh-CN').then((module) => ({ ...module.ZH_CN_WORDS, ...module.ZH_CN })),
  'zh-TW': () => import('../../shared/i18n/locales/zh-TW').then((module) => ({ ...module.ZH_TW_WORDS, ...module.ZH_TW })),
  ja: () => import('../../shared/i18n/locales/ja').then((module) => ({ ...module.JA_WORDS, ...module.JA })),
  ko: () => import('../../shared/i18n/locales/ko').then((module) => ({ ...module.KO_WORDS, ...module.KO })),
  es: () => import('../../shared/i18n/locales/es').then((module) => ({ ...module.ES_WORDS, ...module.ES })),
  fr: () => import('../../shared/i18n/locales/fr').then((module) => ({ ...module.FR_WORDS, ...module.FR })),
  de: () => import('../../shared/i18n/locales/de').then((module) => ({ ...module.DE_WORDS, ...module.DE })),
  'pt-BR': () => import('../../shared/i18n/locales/pt-BR').then((module) => ({ ...module.PT_BR_WORDS, ...module.PT_BR })),
  ar: () => import('../../shared/i18n/locales/ar').then((module) => ({ ...module.AR_WORDS, ...module.AR })),
  it: () => import('../../shared/i18n/locales/it').then((module) => ({ ...module.IT_WORDS, ...module.IT })),
  nl: () => import('../../shared/i18n/locales/nl').then((module) => ({ ...module.NL_WORDS, ...module.NL })),
  pl: () => import('../../shared/i18n/locales/pl').then((module) => ({ ...module.PL_WORDS, ...module.PL })),
  sv: () => import('../../shared/i18n/locales/sv').then((module) => ({ ...module.SV_WORDS, ...module.SV })),
  cs: () => import('../../shared/i18n/locales/cs').then((module) => ({ ...module.CS_WORDS, ...module.CS })),
  tr: () => import('../../shared/i18n/locales/tr').then((module) => ({ ...module.TR_WORDS, ...module.TR })),
  ru: () => import('../../shared/i18n/locales/ru').then((module) => ({ ...module.RU_WORDS, ...module.RU })),
  uk: () => import('../../shared/i18n/locales/uk').then((module) => ({ ...module.UK_WORDS, ...module.UK })),
  vi: () => import('../../shared/i18n/locales/vi').then((module) => ({ ...module.VI_WORDS, ...module.VI })),
  id: () => import('../../shared/i18n/locales/id').then((module) => ({ ...module.ID_WORDS, ...module.ID })),
  th: () => import('../../shared/i18n/locales/th').then((module) => ({ ...module.TH_WORDS, ...module.TH })),
  hi: () => import('../../shared/i18n/locales/hi').then((module) => ({ ...module.HI_WORDS, ...module.HI })),
  he: () => import('../../shared/i18n/locales/he').then((module) => ({ ...module.HE_WORDS, ...module.HE })),
  fa: () => import('../../shared/i18n/locales/fa').then((module) => ({ ...module.FA_WORDS, ...module.FA })),
};

/**
 * The page's every text: its language's chunk, the `strings` option's texts in place
 * (UploadPageBoot.strings). The recorder's texts come in `strings` too, but only to a page that
 * records (shared/i18n/recordingTexts.ts): a page that does not never reads them.
 */
export async function loadPageTexts(lang: WidgetLanguage, strings: WidgetStrings): Promise<StringTable> {
  return { ...(await LOCALES[lang]()), ...strings } as StringTable;
}
