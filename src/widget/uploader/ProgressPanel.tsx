import { formatBytes, formatDuration, formatPercent } from './format';
import type { Texts } from './i18n';
import type { Estimate } from './speedMeter';

interface ProgressPanelProps {
  texts: Texts;
  fileName: string;
  sent: number;
  total: number;
  estimate: Estimate | null;
}

export function ProgressPanel({ texts, fileName, sent, total, estimate }: ProgressPanelProps) {
  const percent = formatPercent(sent, total);
  const ofTotal = texts.ofTotal(formatBytes(sent, texts), formatBytes(total, texts));
  const facts = [percent, ofTotal];
  if (estimate) {
    facts.push(texts.speed(formatBytes(Math.round(estimate.bytesPerSecond), texts)));
    facts.push(texts.timeLeft(formatDuration(estimate.secondsLeft, texts)));
  }
  return (
    <div class="progress">
      <div
        class="track"
        role="progressbar"
        aria-label={texts.progressLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={parseInt(percent, 10)}
        aria-valuetext={`${percent}, ${ofTotal}`}
      >
        <div class="fill" style={{ width: percent }} />
      </div>
      <p class="facts">{facts.join(' · ')}</p>
      {/* Screen readers hear progress in 10 % steps: every change of the line above would be noise. */}
      <p class="visually-hidden" aria-live="polite">
        {texts.milestone(fileName, `${Math.floor((sent / Math.max(total, 1)) * 10) * 10}%`)}
      </p>
    </div>
  );
}
