import type { LoaderWords } from '../../shared/i18n/loaderWords';
import { RTL_LANGUAGES, type WidgetLanguage } from '../../shared/widgetConfig';

/** The loader's words in the widget's language, as its parts show them. */
export type LoaderTexts = LoaderWords & { lang: WidgetLanguage; rtl: boolean };

/**
 * One language's words (the script loaders fetch only that language's, the `texts-<lang>` part)
 * with the `strings` option's texts for them when they are strings: the service checks the option
 * as a whole and refuses it with 106.
 */
export function loaderTexts(words: LoaderWords, lang: WidgetLanguage, strings: unknown): LoaderTexts {
  const shown: LoaderTexts = { ...words, lang, rtl: RTL_LANGUAGES.includes(lang) };
  for (const key in words) {
    const text = (strings as Record<string, unknown> | undefined)?.[key];
    if (typeof text === 'string') shown[key as keyof LoaderWords] = text;
  }
  return shown;
}
