import { LOADER_WORDS, type LoaderWords } from '../../shared/i18n/loaderWords';
import { languageOf, RTL_LANGUAGES, WIDGET_LANGUAGES, type WidgetLanguage } from '../../shared/widgetConfig';

/**
 * The loader's `texts` part (LoaderParts in openUpload.ts): the loader's few words in every
 * language, fetched beside the loader rather than carried by it, whose byte budget cannot hold
 * ten languages. The upload page and the service's error page get theirs from the service.
 */
export type LoaderTexts = LoaderWords & { lang: WidgetLanguage; rtl: boolean };

/**
 * The configured `lang` when it is one we speak (even when another option is wrong, as on the
 * service), else the browser's; the `strings` option's texts for these words when they are
 * strings (the service checks the option as a whole and refuses it with 106).
 */
export function loaderTexts(lang: unknown, browserLanguage: string, strings: unknown): LoaderTexts {
  const chosen = WIDGET_LANGUAGES.includes(lang as never) ? (lang as WidgetLanguage) : languageOf(browserLanguage);
  const words: LoaderWords = { ...LOADER_WORDS[chosen] };
  if (typeof strings === 'object' && strings !== null) {
    for (const key of Object.keys(words) as (keyof LoaderWords)[]) {
      const text = (strings as Record<string, unknown>)[key];
      if (typeof text === 'string') words[key] = text;
    }
  }
  return { ...words, lang: chosen, rtl: RTL_LANGUAGES.includes(chosen) };
}
