import type { WidgetLanguage } from '../../shared/widgetConfig';

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
  progressLabel: string;
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
  unreadable(name: string): string;
  tooLarge(name: string, max: string): string;
  networkError: string;
  serverRefused(code: string | undefined): string;
  success(name: string): string;
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
  progressLabel: 'Upload progress',
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
  unreadable: (name) => `“${name}” could not be read. Choose it again or another file.`,
  tooLarge: (name, max) => `“${name}” is larger than the limit of ${max}.`,
  networkError: 'The connection to the server failed. Try again to continue from where it stopped.',
  serverRefused: (code) => `The server refused the upload${code ? ` (code ${code})` : ''}.`,
  success: (name) => `“${name}” was uploaded.`,
  units: { bytes: ['B', 'KB', 'MB', 'GB', 'TB'], hour: 'h', minute: 'min', second: 's' },
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
  progressLabel: '上传进度',
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
  unreadable: (name) => `无法读取“${name}”，请重新选择或选择其他文件。`,
  tooLarge: (name, max) => `“${name}”超过了 ${max} 的大小限制。`,
  networkError: '与服务器的连接失败。点击重试可从中断处继续。',
  serverRefused: (code) => `服务器拒绝了本次上传${code ? `（代码 ${code}）` : ''}。`,
  success: (name) => `“${name}”上传成功。`,
  units: { bytes: ['B', 'KB', 'MB', 'GB', 'TB'], hour: '小时', minute: '分', second: '秒' },
};

const TEXTS: Record<WidgetLanguage, Texts> = { en: EN, 'zh-CN': ZH_CN };

export function textsFor(lang: WidgetLanguage): Texts {
  return TEXTS[lang];
}
