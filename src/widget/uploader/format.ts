import type { Container } from '../../shared/widgetConfig';
import type { Texts } from './i18n';

/** How people write the containers' names (the same in every language). */
const CONTAINER_LABELS: Record<Container, string> = {
  mp4: 'MP4',
  mov: 'MOV',
  m4v: 'M4V',
  '3gp': '3GP',
  webm: 'WebM',
  mkv: 'MKV',
  avi: 'AVI',
  flv: 'FLV',
  wmv: 'WMV',
  mpeg: 'MPEG',
  ts: 'MPEG-TS',
  ogg: 'Ogg',
  rm: 'RealMedia',
  mxf: 'MXF',
  dv: 'DV',
};

export function containerLabel(container: Container): string {
  return CONTAINER_LABELS[container];
}

/** 1024-based, so binary units (KiB, MiB, GiB), one decimal from KiB up: "12.3 MiB". */
export function formatBytes(bytes: number, texts: Texts): string {
  const units = texts.units.bytes;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Whole seconds, at most two units: "1 h 5 min", "3 min 20 s", "12 s". */
export function formatDuration(seconds: number, texts: Texts): string {
  const { hour, minute, second } = texts.units;
  const total = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} ${hour} ${m} ${minute}`;
  if (m > 0) return `${m} ${minute} ${s} ${second}`;
  return `${s} ${second}`;
}

/** A video's length or a limit on it: "4.5 s" under a minute (tenths matter near a limit), else as {@link formatDuration}. */
export function formatLength(seconds: number, texts: Texts): string {
  const { minute, second } = texts.units;
  if (seconds < 60) return `${Number(seconds.toFixed(1))} ${second}`;
  const whole = Math.round(seconds);
  // "10 min", not "10 min 0 s": limits are often whole minutes.
  return whole < 3600 && whole % 60 === 0 ? `${whole / 60} ${minute}` : formatDuration(whole, texts);
}

export function formatPercent(part: number, whole: number): string {
  return `${whole > 0 ? Math.floor((part / whole) * 100) : 0}%`;
}
