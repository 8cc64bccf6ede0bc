import type { WidgetLanguage } from '../../shared/widgetConfig';

/** The service's ResultCode for an app over one of its quotas: a wait helps, unlike other refusals. */
const TOO_MANY_REQUESTS = '116';

export interface Texts {
  title: string;
  choose: string;
  dropHint: string;
  dropZone: string;
  limit(max: string): string;
  resumeHint(name: string, percent: string): string;
  preparing(name: string): string;
  uploading(name: string): string;
  paused(name: string): string;
  waitingForNetwork(name: string): string;
  progressLabel: string;
  /** Announced to screen readers at each 10 % step. */
  milestone(name: string, percent: string): string;
  ofTotal(sent: string, total: string): string;
  speed(perSecond: string): string;
  timeLeft(duration: string): string;
  pause: string;
  resume: string;
  cancel: string;
  retry: string;
  canceled: string;
  empty(name: string): string;
  notVideo(name: string): string;
  /** The name says video, the first bytes say otherwise (a renamed file). */
  notVideoContent(name: string): string;
  unreadable(name: string): string;
  tooLarge(name: string, max: string): string;
  networkError: string;
  serverRefused(code: string | undefined): string;
  success(name: string): string;
  /** Under the success line: what happens to the file now. */
  processingNext: string;
  close: string;
  /** × or Escape while bytes move. */
  askClose(percent: string): string;
  keepUploading: string;
  stopAndClose: string;
  discard: string;
  askDiscard(name: string, percent: string): string;
  keepStored: string;
  discarded: string;
  discardFailed: string;
  /** Another file chosen while the service holds part of an earlier one. */
  askReplace(stored: string, percent: string, chosen: string): string;
  replace: string;
  noPreview: string;
  posterAlt(name: string): string;
  /** After the upload, when the service reports status 1 or 7. */
  processingReady: string;
  processingFailed: string;
  /** Reopened for an unfinished upload whose file handle the browser kept. */
  continueFile(name: string, percent: string): string;
  reopenFailed(name: string): string;
  units: { bytes: readonly string[]; hour: string; minute: string; second: string };
}

const EN: Texts = {
  title: 'Upload a video',
  choose: 'Choose a video file',
  dropHint: 'or drop it here',
  dropZone: 'Drop a video file here',
  limit: (max) => `Video files up to ${max}.`,
  resumeHint: (name, percent) => `An earlier upload of “${name}” stopped at ${percent}. Choose the same file to continue from there.`,
  preparing: (name) => `Preparing “${name}”…`,
  uploading: (name) => `Uploading “${name}”`,
  paused: (name) => `Paused: “${name}”`,
  waitingForNetwork: (name) => `Connection lost: “${name}”. The upload continues by itself when the connection is back.`,
  progressLabel: 'Upload progress',
  milestone: (name, percent) => `“${name}”: ${percent} uploaded`,
  ofTotal: (sent, total) => `${sent} of ${total}`,
  speed: (perSecond) => `${perSecond}/s`,
  timeLeft: (duration) => `${duration} left`,
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  retry: 'Try again',
  canceled: 'Upload canceled. Choose the same file to continue, or another one.',
  empty: (name) => `“${name}” is empty. Choose a video file.`,
  notVideo: (name) => `“${name}” is not a video file. Choose a video file.`,
  notVideoContent: (name) => `“${name}” does not contain a video in any format we know, whatever its name says. Choose a video file.`,
  unreadable: (name) => `“${name}” could not be read. Choose it again or another file.`,
  tooLarge: (name, max) => `“${name}” is larger than the limit of ${max}.`,
  networkError: 'The connection to the server failed. Try again to continue from where it stopped.',
  serverRefused: (code) =>
    code === TOO_MANY_REQUESTS
      ? `This site has reached its limit of uploads for now. Wait a minute, then try again (code ${code}).`
      : `The server refused the upload${code ? ` (code ${code})` : ''}.`,
  success: (name) => `“${name}” was uploaded.`,
  processingNext: 'It is being processed now; the video will be ready to play in a few minutes.',
  close: 'Close',
  askClose: (percent) => `Stop uploading? You can continue later from ${percent}.`,
  keepUploading: 'Keep uploading',
  stopAndClose: 'Stop and close',
  discard: 'Discard upload',
  askDiscard: (name, percent) => `Discard the ${percent} of “${name}” the server holds? The next upload starts from the beginning.`,
  keepStored: 'Keep it',
  discarded: 'The earlier upload was discarded.',
  discardFailed: 'The earlier upload could not be discarded. Try again later.',
  askReplace: (stored, percent, chosen) => `The server holds ${percent} of “${stored}”. Upload “${chosen}” instead and discard it?`,
  replace: 'Upload the new file',
  noPreview: 'No preview for this format.',
  processingReady: 'Processing is done: the video is ready to play.',
  processingFailed: 'Processing failed. The site owner can see why.',
  continueFile: (name, percent) => `Continue “${name}” from ${percent}`,
  reopenFailed: (name) => `“${name}” could not be opened again. Choose it with the button below.`,
  posterAlt: (name) => `A frame of “${name}”`,
  units: { bytes: ['B', 'KiB', 'MiB', 'GiB', 'TiB'], hour: 'h', minute: 'min', second: 's' },
};

const ZH_CN: Texts = {
  title: '上传视频',
  choose: '选择视频文件',
  dropHint: '或拖放到这里',
  dropZone: '将视频文件拖放到这里',
  limit: (max) => `视频文件不超过 ${max}。`,
  resumeHint: (name, percent) => `“${name}”上次上传到 ${percent} 时中断。选择同一文件即可从中断处继续。`,
  preparing: (name) => `正在准备“${name}”…`,
  uploading: (name) => `正在上传“${name}”`,
  paused: (name) => `已暂停：“${name}”`,
  waitingForNetwork: (name) => `连接中断：“${name}”。连接恢复后将自动继续上传。`,
  progressLabel: '上传进度',
  milestone: (name, percent) => `“${name}”已上传 ${percent}`,
  ofTotal: (sent, total) => `${sent} / ${total}`,
  speed: (perSecond) => `${perSecond}/秒`,
  timeLeft: (duration) => `剩余 ${duration}`,
  pause: '暂停',
  resume: '继续',
  cancel: '取消',
  retry: '重试',
  canceled: '已取消上传。选择同一文件可继续上传，也可选择其他文件。',
  empty: (name) => `“${name}”是空文件，请选择视频文件。`,
  notVideo: (name) => `“${name}”不是视频文件，请选择视频文件。`,
  notVideoContent: (name) => `“${name}”的内容不是可识别的视频格式（与文件名无关），请选择视频文件。`,
  unreadable: (name) => `无法读取“${name}”，请重新选择或选择其他文件。`,
  tooLarge: (name, max) => `“${name}”超过了 ${max} 的大小限制。`,
  networkError: '与服务器的连接失败。点击重试可从中断处继续。',
  serverRefused: (code) =>
    code === TOO_MANY_REQUESTS ? `该网站暂时达到了上传次数上限。请稍等一分钟后重试（代码 ${code}）。` : `服务器拒绝了本次上传${code ? `（代码 ${code}）` : ''}。`,
  success: (name) => `“${name}”上传成功。`,
  processingNext: '视频正在处理中，几分钟后即可播放。',
  close: '关闭',
  askClose: (percent) => `要停止上传吗？之后可从 ${percent} 处继续。`,
  keepUploading: '继续上传',
  stopAndClose: '停止并关闭',
  discard: '放弃上传',
  askDiscard: (name, percent) => `要放弃服务器上“${name}”已保存的 ${percent} 吗？下次上传将从头开始。`,
  keepStored: '保留',
  discarded: '已放弃之前的上传。',
  discardFailed: '无法放弃之前的上传，请稍后重试。',
  askReplace: (stored, percent, chosen) => `服务器已保存“${stored}”的 ${percent}。要改为上传“${chosen}”并放弃它吗？`,
  replace: '上传新文件',
  noPreview: '此格式无法预览。',
  processingReady: '处理完成，视频可以播放了。',
  processingFailed: '处理失败，网站管理员可以查看原因。',
  continueFile: (name, percent) => `从 ${percent} 继续上传“${name}”`,
  reopenFailed: (name) => `无法再次打开“${name}”，请用下面的按钮选择它。`,
  posterAlt: (name) => `“${name}”的画面`,
  units: { bytes: ['B', 'KiB', 'MiB', 'GiB', 'TiB'], hour: '小时', minute: '分', second: '秒' },
};

const ZH_TW: Texts = {
  title: '上傳影片',
  choose: '選擇影片檔案',
  dropHint: '或拖放到這裡',
  dropZone: '將影片檔案拖放到這裡',
  limit: (max) => `影片檔案不超過 ${max}。`,
  resumeHint: (name, percent) => `「${name}」上次上傳到 ${percent} 時中斷。選擇同一個檔案即可從中斷處繼續。`,
  preparing: (name) => `正在準備「${name}」…`,
  uploading: (name) => `正在上傳「${name}」`,
  paused: (name) => `已暫停：「${name}」`,
  waitingForNetwork: (name) => `連線中斷：「${name}」。連線恢復後將自動繼續上傳。`,
  progressLabel: '上傳進度',
  milestone: (name, percent) => `「${name}」已上傳 ${percent}`,
  ofTotal: (sent, total) => `${sent} / ${total}`,
  speed: (perSecond) => `${perSecond}/秒`,
  timeLeft: (duration) => `剩餘 ${duration}`,
  pause: '暫停',
  resume: '繼續',
  cancel: '取消',
  retry: '重試',
  canceled: '已取消上傳。選擇同一個檔案可繼續上傳，也可選擇其他檔案。',
  empty: (name) => `「${name}」是空檔案，請選擇影片檔案。`,
  notVideo: (name) => `「${name}」不是影片檔案，請選擇影片檔案。`,
  notVideoContent: (name) => `「${name}」的內容不是可辨識的影片格式（與檔名無關），請選擇影片檔案。`,
  unreadable: (name) => `無法讀取「${name}」，請重新選擇或選擇其他檔案。`,
  tooLarge: (name, max) => `「${name}」超過了 ${max} 的大小限制。`,
  networkError: '與伺服器的連線失敗。點選重試可從中斷處繼續。',
  serverRefused: (code) =>
    code === TOO_MANY_REQUESTS ? `此網站暫時達到了上傳次數上限。請稍候一分鐘後再試（代碼 ${code}）。` : `伺服器拒絕了這次上傳${code ? `（代碼 ${code}）` : ''}。`,
  success: (name) => `「${name}」上傳成功。`,
  processingNext: '影片正在處理中，幾分鐘後即可播放。',
  close: '關閉',
  askClose: (percent) => `要停止上傳嗎？之後可從 ${percent} 處繼續。`,
  keepUploading: '繼續上傳',
  stopAndClose: '停止並關閉',
  discard: '放棄上傳',
  askDiscard: (name, percent) => `要放棄伺服器上「${name}」已儲存的 ${percent} 嗎？下次上傳將從頭開始。`,
  keepStored: '保留',
  discarded: '已放棄先前的上傳。',
  discardFailed: '無法放棄先前的上傳，請稍後再試。',
  askReplace: (stored, percent, chosen) => `伺服器已儲存「${stored}」的 ${percent}。要改為上傳「${chosen}」並放棄它嗎？`,
  replace: '上傳新檔案',
  noPreview: '此格式無法預覽。',
  processingReady: '處理完成，影片可以播放了。',
  processingFailed: '處理失敗，網站管理員可以查看原因。',
  continueFile: (name, percent) => `從 ${percent} 繼續上傳「${name}」`,
  reopenFailed: (name) => `無法再次開啟「${name}」，請用下面的按鈕選擇它。`,
  posterAlt: (name) => `「${name}」的畫面`,
  units: { bytes: ['B', 'KiB', 'MiB', 'GiB', 'TiB'], hour: '小時', minute: '分', second: '秒' },
};

const TEXTS: Record<WidgetLanguage, Texts> = { en: EN, 'zh-CN': ZH_CN, 'zh-TW': ZH_TW };

export function textsFor(lang: WidgetLanguage): Texts {
  return TEXTS[lang];
}
