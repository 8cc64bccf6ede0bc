import type { WidgetLanguage } from '../../shared/widgetConfig';

/** The few words the loader itself shows or reports; the uploader page carries the rest. */
const TEXTS = {
  en: {
    dialog: 'Upload video',
    close: 'Close',
    closed: 'The upload widget was closed before a file was uploaded.',
  },
  'zh-CN': {
    dialog: '上传视频',
    close: '关闭',
    closed: '上传窗口已关闭，未上传文件。',
  },
} as const satisfies Record<WidgetLanguage, Record<string, string>>;

export type LoaderTexts = (typeof TEXTS)[WidgetLanguage];

export function loaderTexts(lang: WidgetLanguage | undefined, browserLanguage: string): LoaderTexts {
  return TEXTS[lang ?? (/^zh/i.test(browserLanguage) ? 'zh-CN' : 'en')];
}
