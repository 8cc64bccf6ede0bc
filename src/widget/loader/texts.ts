import type { LoaderWords } from '../../shared/i18n/loaderWords';
import { RTL_LANGUAGES, type WidgetCode, type WidgetLanguage } from '../../shared/widgetConfig';

/**
 * What the loader says when the upload page never answers: the `ErrorMessage` in English, as the
 * service's are, and a hint for the site's developer (the console and `onFailure`, never the
 * page). They travel with the words, in the texts part, rather than in the loaders, whose bytes
 * are counted (test/widget.budget.test.ts).
 */
const UNANSWERED = {
  unanswered: {
    code: 'unanswered' as const satisfies WidgetCode,
    message: 'No Answer: the upload page did not load within 10 s',
    hint: 'nothing answered at serviceUrl: check the address, and that the service runs and is reachable from this page',
  },
};

/** The loader's words in the widget's language, as its parts show them. */
export type LoaderTexts = LoaderWords & typeof UNANSWERED & { lang: WidgetLanguage; rtl: boolean };

/**
 * One language's words (the script loaders fetch only that language's, the `texts-<lang>` part)
 * with the `strings` option's texts for them when they are strings: the service checks the option
 * as a whole and refuses it with 106.
 */
export function loaderTexts(words: LoaderWords, lang: WidgetLanguage, strings: unknown): LoaderTexts {
  const shown: LoaderTexts = { ...words, ...UNANSWERED, lang, rtl: RTL_LANGUAGES.includes(lang) };
  for (const key in words) {
    const text = (strings as Record<string, unknown> | undefined)?.[key];
    if (typeof text === 'string') shown[key as keyof LoaderWords] = text;
  }
  return shown;
}
