import type { WidgetLanguage } from '../widgetConfig';

/**
 * The words the loader's parts show before or without the upload page: the overlay's labels, the
 * message of a widget closed with nothing uploaded, and the loader's own error page. Apart from
 * the pages' tables (locales/), so the loader's `texts` part carries these and nothing more.
 */
export interface LoaderWords {
  /** The overlay's label and the upload page's title. */
  dialog: string;
  close: string;
  closed: string;
  /** The heading of both error pages (the service's and the loader's). */
  errorHeading: string;
  /** The loader's error page: what the site owner can do about a setting it refused. */
  adviceSetting: string;
}

export const LOADER_WORDS: Record<WidgetLanguage, LoaderWords> = {
  en: {
    dialog: 'Upload video',
    close: 'Close',
    closed: 'Closed before a file was uploaded.',
    errorHeading: 'The upload cannot start',
    adviceSetting: 'The site owner can fix this setting.',
  },
  'zh-CN': {
    dialog: '上传视频',
    close: '关闭',
    closed: '窗口已关闭，未上传文件。',
    errorHeading: '无法开始上传',
    adviceSetting: '请网站管理员修正设置。',
  },
  'zh-TW': {
    dialog: '上傳影片',
    close: '關閉',
    closed: '視窗已關閉，未上傳檔案。',
    errorHeading: '無法開始上傳',
    adviceSetting: '請網站管理員修正設定。',
  },
  ja: {
    dialog: '動画をアップロード',
    close: '閉じる',
    closed: 'ファイルをアップロードする前に閉じられました。',
    errorHeading: 'アップロードを開始できません',
    adviceSetting: 'この設定はサイト管理者が修正できます。',
  },
  ko: {
    dialog: '동영상 업로드',
    close: '닫기',
    closed: '파일을 업로드하기 전에 닫혔습니다.',
    errorHeading: '업로드를 시작할 수 없습니다',
    adviceSetting: '사이트 관리자가 이 설정을 수정할 수 있습니다.',
  },
  es: {
    dialog: 'Subir vídeo',
    close: 'Cerrar',
    closed: 'Se cerró antes de subir ningún archivo.',
    errorHeading: 'No se puede iniciar la subida',
    adviceSetting: 'El propietario del sitio puede corregir este ajuste.',
  },
  fr: {
    dialog: 'Envoyer une vidéo',
    close: 'Fermer',
    closed: 'Fermé avant l’envoi d’un fichier.',
    errorHeading: 'L’envoi ne peut pas commencer',
    adviceSetting: 'Le responsable du site peut corriger ce réglage.',
  },
  de: {
    dialog: 'Video hochladen',
    close: 'Schließen',
    closed: 'Geschlossen, bevor eine Datei hochgeladen wurde.',
    errorHeading: 'Der Upload kann nicht beginnen',
    adviceSetting: 'Der Betreiber der Website kann diese Einstellung korrigieren.',
  },
  'pt-BR': {
    dialog: 'Enviar vídeo',
    close: 'Fechar',
    closed: 'Fechado antes de enviar um arquivo.',
    errorHeading: 'Não é possível iniciar o envio',
    adviceSetting: 'O responsável pelo site pode corrigir esta configuração.',
  },
  ar: {
    dialog: 'رفع فيديو',
    close: 'إغلاق',
    closed: 'أُغلقت النافذة قبل رفع أي ملف.',
    errorHeading: 'تعذّر بدء الرفع',
    adviceSetting: 'يستطيع مالك الموقع تصحيح هذا الإعداد.',
  },
};
