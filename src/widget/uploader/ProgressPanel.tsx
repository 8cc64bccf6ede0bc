import { formatBytes, formatDuration, formatPercent } from './format';
import type { Texts } from './i18n';
import type { Estimate } from './speedMeter';

interface ProgressPanelProps {
  texts: Texts;
  sent: number;
  total: number;
  estimate: Estimate | null;
}

export function ProgressPanel({ texts, sent, total, estimate }: ProgressPanelProps) {
  const percent = formatPercent(sent, total);
  const facts = [percent, texts.ofTotal(formatBytes(sent, texts), formatBytes(total, texts))];
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
      >
        <div class="fill" style={{ width: percent }} />
      </div>
      <p class="facts">{facts.join(' · ')}</p>
    </div>
  );
}
