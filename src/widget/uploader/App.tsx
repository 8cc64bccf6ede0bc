import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { UploadPageBoot } from '../../shared/uploadPage';
import { FilePicker } from './FilePicker';
import { refuseFile } from './fileChecks';
import { formatBytes, formatPercent } from './format';
import type { HostLink } from './hostLink';
import { textsFor } from './i18n';
import { ProgressPanel } from './ProgressPanel';
import { SpeedMeter } from './speedMeter';
import type { StartUpload, UploadControl } from './uploadCore';

export interface AppProps {
  boot: UploadPageBoot;
  host: HostLink;
  startUpload: StartUpload;
  fingerprint(file: File): Promise<string>;
  /** Milliseconds, for the speed estimate. */
  now?: () => number;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'preparing'; file: File }
  | { kind: 'uploading' | 'paused' | 'failed'; file: File; sent: number }
  | { kind: 'done'; file: File };

interface Notice {
  tone: 'error' | 'info';
  text: string;
}

export function App({ boot, host, startUpload, fingerprint, now = () => performance.now() }: AppProps) {
  // The service picks the language: the config's `lang`, else the browser's (Accept-Language).
  const lang = boot.lang;
  const t = textsFor(lang);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const control = useRef<UploadControl | null>(null);
  // Each chosen file gets a new generation; events of an abandoned upload are dropped by comparing it.
  const generation = useRef(0);
  const meter = useMemo(() => new SpeedMeter(), []);
  const [, redraw] = useState(0);

  useEffect(() => {
    host.post({ type: 'ready', valid: true });
    // The host is closing: stop sending so the service keeps a clean offset to resume from.
    return host.onClose(() => control.current?.pause());
  }, [host]);

  // A layout effect, so Escape works from the first paint: a plain effect runs a frame later,
  // while the uploader is already on screen and focusable.
  useLayoutEffect(() => {
    // Escape inside the iframe never reaches the host page, so ask the loader to close.
    if (boot.form !== 'overlay') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') host.post({ type: 'close' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [boot.form, host]);

  const fileInfo = (file: File) => ({ videoId: boot.videoId, fileName: file.name, fileSize: file.size });

  const refuse = (file: File, text: string) => {
    setPhase({ kind: 'idle' });
    setNotice({ tone: 'error', text });
    host.post({ type: 'failure', info: { ...fileInfo(file), reason: 'rejected', message: text } });
  };

  const choose = async (file: File) => {
    const refusal = refuseFile(file, boot.maxFileSize);
    if (refusal) {
      refuse(file, refusal === 'tooLarge' ? t.tooLarge(file.name, formatBytes(boot.maxFileSize, t)) : t[refusal](file.name));
      return;
    }
    const current = ++generation.current;
    setNotice(null);
    setPhase({ kind: 'preparing', file });
    let print: string;
    try {
      print = await fingerprint(file);
    } catch {
      refuse(file, t.unreadable(file.name));
      return;
    }
    if (current !== generation.current) return;

    const saved = boot.resume;
    const resume = saved && saved.fingerprint === print && saved.size === file.size && saved.fileName === file.name ? saved : null;
    const live = () => current === generation.current;
    meter.reset();
    setPhase({ kind: 'uploading', file, sent: resume?.offset ?? 0 });
    host.post({ type: 'uploading', busy: true });
    control.current = startUpload(
      { file, fingerprint: print, videoId: boot.videoId, endpoint: boot.tusEndpoint, ticket: boot.ticket, resume },
      {
        onProgress(sent) {
          if (!live()) return;
          meter.add(now(), sent);
          setPhase((p) => (p.kind === 'uploading' ? { ...p, sent } : p));
        },
        onSuccess() {
          if (!live()) return;
          control.current = null;
          setPhase({ kind: 'done', file });
          host.post({ type: 'success', info: fileInfo(file) });
        },
        onRefused(code) {
          if (!live()) return;
          control.current = null;
          const text = t.serverRefused(code);
          setPhase({ kind: 'idle' });
          setNotice({ tone: 'error', text });
          host.post({ type: 'uploading', busy: false });
          host.post({ type: 'failure', info: { ...fileInfo(file), reason: 'server', message: text, ...(code ? { code } : {}) } });
        },
        onNetworkError(bytesUploaded) {
          if (!live()) return;
          setPhase((p) => (p.kind === 'uploading' ? { ...p, kind: 'failed' } : p));
          setNotice({ tone: 'error', text: t.networkError });
          host.post({ type: 'uploading', busy: false });
          host.post({ type: 'error', info: { ...fileInfo(file), reason: 'network', message: t.networkError, bytesUploaded } });
        },
      },
    );
  };

  const pause = () => {
    control.current?.pause();
    meter.reset();
    setPhase((p) => (p.kind === 'uploading' ? { ...p, kind: 'paused' } : p));
    host.post({ type: 'uploading', busy: false });
  };

  const resume = () => {
    setNotice(null);
    setPhase((p) => (p.kind === 'paused' || p.kind === 'failed' ? { ...p, kind: 'uploading' } : p));
    host.post({ type: 'uploading', busy: true });
    control.current?.resume();
  };

  const cancel = () => {
    generation.current += 1;
    control.current?.pause();
    control.current = null;
    setPhase({ kind: 'idle' });
    setNotice({ tone: 'info', text: t.canceled });
    host.post({ type: 'uploading', busy: false });
  };

  // Time passes without progress events while a request waits: refresh the estimate each second.
  useEffect(() => {
    if (phase.kind !== 'uploading') return;
    const timer = setInterval(() => redraw((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [phase.kind]);

  let status = '';
  if (phase.kind === 'preparing') status = t.preparing(phase.file.name);
  else if (phase.kind === 'uploading' || phase.kind === 'failed') status = t.uploading(phase.file.name);
  else if (phase.kind === 'paused') status = t.paused(phase.file.name);
  else if (phase.kind === 'done') status = t.success(phase.file.name);

  return (
    <main class="uploader" lang={lang}>
      <h1>{t.title}</h1>
      {phase.kind === 'idle' && (
        <>
          {boot.resume && <p class="hint">{t.resumeHint(boot.resume.fileName, formatPercent(boot.resume.offset, boot.resume.size))}</p>}
          <FilePicker texts={t} onFile={choose} />
          <p class="hint">{t.limit(formatBytes(boot.maxFileSize, t))}</p>
        </>
      )}
      <p role="status" class={phase.kind === 'done' ? 'status done' : 'status'}>
        {status}
      </p>
      {(phase.kind === 'uploading' || phase.kind === 'paused' || phase.kind === 'failed') && (
        <>
          <ProgressPanel
            texts={t}
            sent={phase.sent}
            total={phase.file.size}
            estimate={phase.kind === 'uploading' ? meter.estimate(phase.file.size) : null}
          />
          <div class="actions">
            {phase.kind === 'uploading' && (
              <button type="button" onClick={pause}>
                {t.pause}
              </button>
            )}
            {phase.kind === 'paused' && (
              <button type="button" class="primary" onClick={resume}>
                {t.resume}
              </button>
            )}
            {phase.kind === 'failed' && (
              <button type="button" class="primary" onClick={resume}>
                {t.retry}
              </button>
            )}
            <button type="button" onClick={cancel}>
              {t.cancel}
            </button>
          </div>
        </>
      )}
      <p role="alert" class={notice?.tone === 'error' ? 'notice error' : 'notice'}>
        {notice?.text}
      </p>
    </main>
  );
}
