/**
 * `npm run lint` refuses a commit whose message breaks the house rule: a subject of at most 72
 * characters in the imperative ("Add", not "Added", "Adds" or "Adding"), a blank line, then a
 * body that says why. Only commits after the one that added this check are read: older history
 * stays as it was written.
 */
import { execFileSync } from 'node:child_process';

const MAX_SUBJECT = 72;

/** Verbs whose imperative ends the way a past tense, a third person or a gerund does. */
const IMPERATIVE_EXCEPTIONS = new Set(['bring', 'embed', 'feed', 'need', 'seed', 'shed', 'speed', 'string']);

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** What is wrong with one commit message, or nothing. */
export function messageProblems(message: string): string[] {
  const [subject = '', blank, ...body] = message.replace(/\s+$/, '').split('\n');
  const problems: string[] = [];
  if (subject.length > MAX_SUBJECT) problems.push(`the subject has ${subject.length} characters (at most ${MAX_SUBJECT})`);
  // A scope such as "docs:" may come first; the verb is the word after it.
  const verb = (/^[\w./-]+: (\S+)/.exec(subject)?.[1] ?? subject.split(' ')[0] ?? '').toLowerCase();
  const notImperative = /(?:ed|ing)$/.test(verb) || (/s$/.test(verb) && !/(?:ss|us|is)$/.test(verb));
  if (notImperative && !IMPERATIVE_EXCEPTIONS.has(verb)) problems.push(`"${verb}" is not the imperative ("Add", not "Added" or "Adds")`);
  if (blank !== undefined && blank.trim() !== '') problems.push('the subject is not followed by a blank line');
  if (body.join('').trim() === '') problems.push('there is no body saying why');
  return problems;
}

function main(): void {
  // The commit that added this file: the rule holds for what came after it, not for it or before.
  const added = git('log', '--diff-filter=A', '--format=%H', '--', 'scripts/checkCommits.ts').trim().split('\n').pop();
  if (!added) {
    console.log('commit messages: this check is not committed yet, so none were checked');
    return;
  }
  const hashes = git('rev-list', '--no-merges', `${added}..HEAD`).split('\n').filter(Boolean);
  const refused = hashes.flatMap((hash) => {
    const problems = messageProblems(git('log', '-1', '--format=%B', hash));
    return problems.length === 0 ? [] : [`${hash.slice(0, 7)} ${git('log', '-1', '--format=%s', hash).trim()}\n  ${problems.join('\n  ')}`];
  });
  if (refused.length > 0) {
    console.error(
      `commit messages: ${refused.length} of ${hashes.length} break the rule (docs/testing.md, "Commit messages"):\n${refused.join('\n')}`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(`commit messages: ${hashes.length} checked, all keep the rule`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
