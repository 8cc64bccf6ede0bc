import { fork } from 'node:child_process';

export interface Child<Job, Reply> {
  /** Its process id, for the figures /proc keeps of it. */
  pid: number;
  /** Hands the child one job and resolves with its reply; one job at a time. */
  run(job: Job): Promise<Reply>;
  /** Lets the child end. */
  stop(): void;
}

type Outcome<Reply> = { ok: true; reply: Reply } | { ok: false; error: string };

/**
 * Starts `module` in a new Node process (TypeScript through tsx) that answers jobs over IPC.
 * Clients run apart from the service this way, so the service keeps its event loop and the RSS
 * of this process stays the service's own; one process for many jobs keeps its code warm.
 */
export function startChild<Job, Reply>(module: URL): Child<Job, Reply> {
  // Structured clone rather than JSON, so numbers such as Infinity cross intact.
  const child = fork(module, { execArgv: ['--import', 'tsx'], stdio: 'inherit', serialization: 'advanced' });
  let pending: { resolve(reply: Reply): void; reject(error: Error): void } | undefined;
  const fail = (error: Error) => {
    pending?.reject(error);
    pending = undefined;
  };
  child.on('message', (message) => {
    const outcome = message as Outcome<Reply>;
    if (outcome.ok) pending?.resolve(outcome.reply);
    else pending?.reject(new Error(outcome.error));
    pending = undefined;
  });
  child.on('error', fail);
  child.on('exit', (code) => fail(new Error(`${module.pathname} exited with ${code}`)));
  return {
    pid: child.pid!,
    run(job) {
      if (pending) return Promise.reject(new Error('the child is busy'));
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        child.send(job as object);
      });
    },
    stop() {
      if (child.connected) child.disconnect();
    },
  };
}

/** The child's side: answers every job it is sent, a failure as a message; ends when the parent lets go. */
export function serveJobs<Job, Reply>(work: (job: Job) => Promise<Reply>): void {
  const answer = async (job: Job): Promise<Outcome<Reply>> => {
    try {
      return { ok: true, reply: await work(job) };
    } catch (error) {
      return { ok: false, error: String((error as Error)?.message ?? error) };
    }
  };
  // answer never rejects: a failed job is a reply like any other.
  process.on('message', (job: Job) => void answer(job).then((outcome) => process.send!(outcome)));
}
