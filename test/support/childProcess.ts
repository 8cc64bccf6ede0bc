import type { ChildProcess } from 'node:child_process';

/** A spawned process whose stdout and stderr lines are collected and can be waited for. */
export interface WatchedProcess {
  child: ChildProcess;
  lines: string[];
  exit: Promise<number | null>;
  stop(signal?: NodeJS.Signals): void;
  /** Resolves with the first line that matches; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
}

export function watchProcess(child: ChildProcess): WatchedProcess {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) waiter.resolve(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exit,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((line) => pattern.test(line));
        if (seen) return resolve(seen);
        waiters.push({ pattern, resolve });
        // exit never rejects: it resolves with the code.
        void exit.then((code) => reject(new Error(`exited with ${code} before ${pattern}:\n${lines.join('\n')}`)));
      }),
  };
}
