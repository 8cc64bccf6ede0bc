import { languageOf, WIDGET_LANGUAGES, type WidgetLanguage } from '../../shared/widgetConfig';

/** The few words the loader itself shows or reports; the uploader page carries the rest, the error page its own (errorPage.ts). */
const TEXTS = {
  en: {
    dialog: 'Upload video',
    close: 'Close',
    closed: 'Closed before a file was uploaded.',
  },
  'zh-CN': {
    dialog: '上传视频',
    close: '关闭',
    closed: '窗口已关闭，未上传文件。',
  },
  'zh-TW': {
    dialog: '上傳影片',
    close: '關閉',
    closed: '視窗已關閉，未上傳檔案。',
  },
} as const satisfies Record<WidgetLanguage, Record<string, string>>;

export type LoaderTexts = (typeof TEXTS)[WidgetLanguage] & { lang: WidgetLanguage };

/** The configured `lang` when it is one we speak (even when another option is wrong, as on the service), else the browser's. */
export function loaderTexts(lang: unknown, browserLanguage: string): LoaderTexts {
  const chosen = WIDGET_LANGUAGES.includes(lang as never) ? (lang as WidgetLanguage) : languageOf(browserLanguage);
  return { ...TEXTS[chosen], lang: chosen };
}
