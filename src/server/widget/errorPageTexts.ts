import type { WidgetLanguage } from '../../shared/widgetConfig';

/** The words around the `ErrorCode : …` line of the service's error page, in the uploader's languages. */
interface ErrorPageTexts {
  title: string;
  heading: string;
  close: string;
  /** What the person or the site owner can do, per error code; `other` for codes without their own line. */
  advice: Record<string, string> & { other: string };
}

const EN: ErrorPageTexts = {
  title: 'Upload error',
  heading: 'The upload cannot start',
  close: 'Close',
  advice: {
    '101': 'The site opened the uploader without a setting it needs. The site owner can fix this; the line above names it.',
    '102': 'This site is not registered with the video service. The site owner should check its AppId.',
    '103': 'The link to the uploader has expired. Reload the page and open the uploader again.',
    '104': 'The site’s signature does not match. The site owner should check its AppSecret and how it computes the Token.',
    '105': 'The video this upload was meant for does not exist. Start again from the site.',
    '106': 'The site passed a setting the uploader does not accept. The site owner can fix this; the line above names it.',
    '107': 'This video already has its file or takes no upload. Start a new upload from the site.',
    '108': 'This page may not open the uploader. The site owner can add it to the app’s allowed origins.',
    '113': 'The site has used all the storage the video service gives it. The site owner can free space or ask for more.',
    '116': 'The site is sending more requests or uploads than the video service allows at once. Wait a moment, then try again.',
    '500': 'The video service failed. Try again in a few minutes.',
    other: 'Reload the page and try again. If it happens again, tell the site owner the line above.',
  },
};

const ZH_CN: ErrorPageTexts = {
  title: '上传出错',
  heading: '无法开始上传',
  close: '关闭',
  advice: {
    '101': '网站打开上传窗口时缺少必需的设置。请网站管理员修正，上面一行写明了缺少的项。',
    '102': '该网站未在视频服务中注册。请网站管理员检查 AppId。',
    '103': '上传链接已过期。请刷新页面后重新打开上传窗口。',
    '104': '网站的签名不匹配。请网站管理员检查 AppSecret 及 Token 的计算方式。',
    '105': '要上传的视频不存在。请从网站重新开始。',
    '106': '网站传入了上传窗口不接受的设置。请网站管理员修正，上面一行写明了该项。',
    '107': '该视频已有文件或不接受上传。请从网站开始新的上传。',
    '108': '此页面无权打开上传窗口。网站管理员可将其加入应用的允许来源。',
    '113': '该网站已用完视频服务分配的存储空间。请网站管理员释放空间或申请更多空间。',
    '116': '该网站发出的请求或上传超过了视频服务允许的数量。请稍候再试。',
    '500': '视频服务出现故障。请几分钟后重试。',
    other: '请刷新页面后重试。如果再次出现，请将上面一行告知网站管理员。',
  },
};

const ZH_TW: ErrorPageTexts = {
  title: '上傳出錯',
  heading: '無法開始上傳',
  close: '關閉',
  advice: {
    '101': '網站開啟上傳視窗時缺少必要的設定。請網站管理員修正，上面一行寫明了缺少的項目。',
    '102': '此網站未在影片服務中註冊。請網站管理員檢查 AppId。',
    '103': '上傳連結已過期。請重新整理頁面後再次開啟上傳視窗。',
    '104': '網站的簽章不符。請網站管理員檢查 AppSecret 及 Token 的計算方式。',
    '105': '要上傳的影片不存在。請從網站重新開始。',
    '106': '網站傳入了上傳視窗不接受的設定。請網站管理員修正，上面一行寫明了該項目。',
    '107': '此影片已有檔案或不接受上傳。請從網站開始新的上傳。',
    '108': '此頁面無權開啟上傳視窗。網站管理員可將其加入應用程式的允許來源。',
    '113': '此網站已用完影片服務分配的儲存空間。請網站管理員釋放空間或申請更多空間。',
    '116': '此網站發出的請求或上傳超過了影片服務允許的數量。請稍候再試。',
    '500': '影片服務發生故障。請幾分鐘後再試。',
    other: '請重新整理頁面後再試。如果再次發生，請將上面一行告知網站管理員。',
  },
};

const TEXTS: Record<WidgetLanguage, ErrorPageTexts> = { en: EN, 'zh-CN': ZH_CN, 'zh-TW': ZH_TW };

export function errorPageTexts(lang: WidgetLanguage): ErrorPageTexts {
  return TEXTS[lang];
}
