import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VideoStatus } from './videoStatus';
import { isVideoTransition, VIDEO_TRANSITIONS } from './videoTransitions';

const docsPage = new URL('../../docs/processing.md', import.meta.url);
const STATUSES = Object.values(VideoStatus);

/** The statuses a video can reach from its registration, walking the table. */
function reachable(): Set<VideoStatus> {
  const reached = new Set<VideoStatus | null>([null]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of VIDEO_TRANSITIONS) {
      if (reached.has(row.from) && !reached.has(row.to)) {
        reached.add(row.to);
        grew = true;
      }
    }
  }
  reached.delete(null);
  return reached as Set<VideoStatus>;
}

/** The rows of docs/processing.md's "States and transitions" table: from (null for –), to, when. */
function documentedRows(): { from: number | null; to: number; when: string }[] {
  const page = readFileSync(docsPage, 'utf8');
  const section = page.slice(page.indexOf('## States and transitions'), page.indexOf('## The queue'));
  return section
    .split('\n')
    .filter((line) => /^\| (–|\d) /.test(line))
    .map((line) => {
      const [from, to, when] = line.slice(2, -2).split(' | ') as [string, string, string];
      return { from: from === '–' ? null : Number(from), to: Number.parseInt(to, 10), when };
    });
}

describe('the video status transition table', () => {
  it('reaches every status but 0 from the registration, and sets 0 never', () => {
    expect([...reachable()].sort()).toEqual(STATUSES.filter((status) => status !== VideoStatus.WaitingForDeletion).sort());
    expect(VIDEO_TRANSITIONS.some((row) => row.to === VideoStatus.WaitingForDeletion)).toBe(false);
  });

  it('leaves no video stuck: every status but 1 has a way onward, and 1 has none', () => {
    for (const status of reachable()) {
      const onward = VIDEO_TRANSITIONS.filter((row) => row.from === status);
      if (status === VideoStatus.Normal) expect(onward).toEqual([]);
      else expect(onward.length, `status ${status}`).toBeGreaterThan(0);
    }
  });

  it('names each change once, and none from a status to itself', () => {
    const pairs = VIDEO_TRANSITIONS.map((row) => `${row.from}→${row.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(VIDEO_TRANSITIONS.filter((row) => row.from === row.to)).toEqual([]);
  });

  it('allows exactly its rows', () => {
    for (const from of [null, ...STATUSES]) {
      for (const to of STATUSES) {
        const listed = VIDEO_TRANSITIONS.some((row) => row.from === from && row.to === to);
        expect(isVideoTransition(from, to), `${from} → ${to}`).toBe(listed);
      }
    }
    expect(isVideoTransition(null, VideoStatus.Normal)).toBe(false);
    expect(isVideoTransition(VideoStatus.Normal, VideoStatus.WaitingForTranscoding)).toBe(false);
  });

  it('is the table of docs/processing.md, row for row', () => {
    expect(documentedRows()).toEqual(VIDEO_TRANSITIONS.map(({ from, to, when }) => ({ from, to, when })));
  });
});
