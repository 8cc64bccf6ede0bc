import type { Texts } from './i18n';

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

export function formatPercent(part: number, whole: number): string {
  return `${whole > 0 ? Math.floor((part / whole) * 100) : 0}%`;
}
