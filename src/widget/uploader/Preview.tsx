import { useEffect, useState } from 'preact/hooks';
import type { Texts } from './i18n';
import { previewVideo, type PreviewResult } from './videoPreview';

interface PreviewProps {
  file: File;
  texts: Texts;
  /** Tests pass a double; the browser's `<video>` otherwise. */
  preview?: typeof previewVideo;
}

/** "1:05:09", "4:07", "0:12": the clock form people read durations in. */
function clock(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A poster frame, duration and resolution of the chosen file, or a word that there is none. */
export function Preview({ file, texts, preview = previewVideo }: PreviewProps) {
  const [result, setResult] = useState<PreviewResult | null>(null);

  useEffect(() => {
    setResult(null);
    const abandon = new AbortController();
    // A browser without object URLs or canvas has no preview either.
    const none: PreviewResult = { kind: 'none' };
    void preview(file, abandon.signal)
      .catch(() => none)
      .then((found) => {
        if (!abandon.signal.aborted) setResult(found);
      });
    return () => abandon.abort();
    // A new file is previewed once; `preview` is the page's one reader for its whole life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file]);

  if (!result) return null;
  if (result.kind === 'none') return <p class="hint preview-none">{texts.noPreview}</p>;
  const known = Number.isFinite(result.duration);
  return (
    <figure class="preview">
      <img src={result.poster} alt={texts.posterAlt(file.name)} width={160} height={Math.round((160 * result.height) / result.width)} />
      <figcaption>
        {/* The exact duration rides along for machines (ISO 8601), the clock for people. */}
        {known && <time dateTime={`PT${result.duration.toFixed(3)}S`}>{clock(result.duration)}</time>}
        {known && ' · '}
        {`${result.width} × ${result.height}`}
      </figcaption>
    </figure>
  );
}
