import { describe, expect, it } from 'vitest';
import { messageProblems } from '../scripts/checkCommits';

const body = '\n\nWhy it matters, in a sentence.';

describe('the commit message rule npm run lint applies', () => {
  it('takes an imperative subject of up to 72 characters with a body, with or without a scope', () => {
    expect(messageProblems(`Keep a replaced remux's URL answering${body}`)).toEqual([]);
    expect(messageProblems(`docs: say which Firefox the engines tier needs${body}`)).toEqual([]);
    expect(messageProblems(`Process uploads by last activity${body}`)).toEqual([]);
    expect(messageProblems(`${'A'.repeat(72)}${body}`)).toEqual([]);
  });

  it('refuses a long subject, a past tense, a third person, a gerund and a missing body', () => {
    expect(messageProblems(`${'A'.repeat(73)}${body}`)).toEqual(['the subject has 73 characters (at most 72)']);
    expect(messageProblems(`Added a check${body}`)[0]).toMatch(/"added" is not the imperative/);
    expect(messageProblems(`cli: Adds a lock${body}`)[0]).toMatch(/"adds" is not the imperative/);
    expect(messageProblems(`Adding a lock${body}`)[0]).toMatch(/"adding" is not the imperative/);
    expect(messageProblems('Add a lock')).toEqual(['there is no body saying why']);
    expect(messageProblems('Add a lock\nwhy, with no blank line')).toContain('the subject is not followed by a blank line');
  });
});
