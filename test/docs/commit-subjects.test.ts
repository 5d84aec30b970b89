// Commit subjects are at most 72 characters, so that `git log --oneline`, a shortlog and a
// review tool show them whole: the commits made since the rule was set are held to it here, and
// .githooks/commit-msg refuses a new one that breaks it (docs/contributing.md installs it).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeUnless } from '../support/describe-unless.js';
import { tempDir } from '../support/temp-dir.js';

/** The last commit before the rule was checked: the commits after it are held to it. */
const BASE = '74117bba8270539b8f0a7989799952c33b062943';
const LIMIT = 72;
const HOOK = '.githooks/commit-msg';

const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** Why the history cannot be checked here, or undefined when it can. */
function historySkipReason(): string | undefined {
  try {
    git('rev-parse', '--is-inside-work-tree');
  } catch {
    return 'skipped: not a git checkout, or git is not installed';
  }
  try {
    git('merge-base', '--is-ancestor', BASE, 'HEAD');
  } catch {
    return `skipped: the base commit ${BASE.slice(0, 10)} is not in this history (a shallow clone?)`;
  }
  return undefined;
}

/** What the hook answers for a commit message: its exit code and what it wrote on standard error. */
function hookVerdict(message: string): { status: number; stderr: string } {
  const dir = tempDir();
  try {
    const file = join(dir.path, 'COMMIT_EDITMSG');
    writeFileSync(file, message);
    execFileSync('sh', [HOOK, file], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { status: 0, stderr: '' };
  } catch (err) {
    const { status, stderr } = err as { status: number; stderr: Buffer };
    return { status, stderr: String(stderr) };
  } finally {
    dir.remove();
  }
}

describeUnless(historySkipReason(), `the subjects of the commits after ${BASE.slice(0, 10)}`, () => {
  it(`are not empty and at most ${LIMIT} characters`, () => {
    const commits = git('log', '--format=%h%x09%s', `${BASE}..HEAD`)
      .split('\n')
      .filter((line) => line !== '');
    const broken = commits
      .map((line) => line.split('\t') as [string, string])
      .filter(([, subject]) => subject.trim() === '' || [...subject].length > LIMIT)
      .map(([hash, subject]) => `${hash}: ${[...subject].length} characters: ${subject}`);
    expect(broken).to.deep.equal([]);
  });
});

describe(`the commit-msg hook (${HOOK})`, () => {
  const subject = (length: number, character = 'x'): string => character.repeat(length);

  it(`accepts a subject of ${LIMIT} characters, counting characters, not bytes`, () => {
    expect(hookVerdict(`${subject(LIMIT)}\n\nWhy, at any length.\n`).status).to.equal(0);
    expect(hookVerdict(`${subject(LIMIT, 'é')}\n`).status).to.equal(0);
  });

  it(`refuses a subject of ${LIMIT + 1} characters, saying so`, () => {
    const verdict = hookVerdict(`${subject(LIMIT + 1)}\n`);
    expect(verdict.status).to.equal(1);
    expect(verdict.stderr).to.contain(`${LIMIT + 1} characters, more than ${LIMIT}`);
    expect(hookVerdict(`${subject(LIMIT + 1, 'é')}\n`).status).to.equal(1);
  });

  it('measures the subject as git log shows it: comment lines skipped, its first paragraph joined', () => {
    expect(hookVerdict(`# Please enter the commit message\n\nAdd a check   \n# comment\n`).status).to.equal(0);
    expect(hookVerdict(`${subject(40)}\n${subject(40)}\n\nBody.\n`).status).to.equal(1);
  });

  it('refuses an empty subject', () => {
    expect(hookVerdict('\n# Please enter the commit message\n').status).to.equal(1);
    expect(hookVerdict('').status).to.equal(1);
  });
});
