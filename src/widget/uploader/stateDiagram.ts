import { STATE_KINDS, type Transition } from './machine';

/** Where the diagram sits in docs/widget.md: between these two lines. */
export const DIAGRAM_MARKERS = { begin: '<!-- uploader states: begin -->', end: '<!-- uploader states: end -->' } as const;

/**
 * The transition table as a Mermaid state diagram, one arrow per pair of states with the events
 * that take it (and what decides, where the data does), in the table's order of states; the same
 * table always gives the same text, so a test can compare it with the copy in docs/widget.md.
 */
export function stateDiagram(transitions: readonly Transition[]): string {
  const arrows = new Map<string, string[]>();
  for (const { from, on, to, note } of transitions) {
    const label = note ? `${on} (${note})` : on;
    for (const source of from) {
      for (const target of to) {
        const key = `${source} --> ${target}`;
        const labels = arrows.get(key) ?? [];
        if (!labels.includes(label)) labels.push(label);
        arrows.set(key, labels);
      }
    }
  }
  const rank = (key: string) => key.split(' --> ').map((kind) => STATE_KINDS.indexOf(kind as (typeof STATE_KINDS)[number]));
  const keys = [...arrows.keys()].sort((a, b) => {
    const [a1 = 0, a2 = 0] = rank(a);
    const [b1 = 0, b2 = 0] = rank(b);
    return a1 - b1 || a2 - b2;
  });
  return ['```mermaid', 'stateDiagram-v2', '  [*] --> idle', ...keys.map((key) => `  ${key}: ${arrows.get(key)!.join(', ')}`), '```'].join(
    '\n',
  );
}

/** `doc` with the diagram between the markers replaced by `diagram`. */
export function withDiagram(doc: string, diagram: string): string {
  const start = doc.indexOf(DIAGRAM_MARKERS.begin);
  const end = doc.indexOf(DIAGRAM_MARKERS.end);
  if (start < 0 || end < start)
    throw new Error(`docs/widget.md: the markers ${DIAGRAM_MARKERS.begin} and ${DIAGRAM_MARKERS.end} are missing`);
  return `${doc.slice(0, start + DIAGRAM_MARKERS.begin.length)}\n${diagram}\n${doc.slice(end)}`;
}
