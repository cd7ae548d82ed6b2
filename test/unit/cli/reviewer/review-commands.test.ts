import { Command, CommanderError } from 'commander';
import { ExitCode } from '../../../../src/cli/exit-codes';
import { registerReviewCommands } from '../../../../src/cli/reviewer/review-commands';
import type { ReviewCommandDeps } from '../../../../src/cli/reviewer/review-command-deps';
import { fakeFetch, json, type RecordedRequest } from '../../../support/client-fake-fetch';

interface Run {
  exitCodes: number[];
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
}

/** Runs `assay assessments <args>` in-process against a fake service answering an empty queue page. */
async function assessments(...args: string[]): Promise<Run> {
  const { fetch, requests } = fakeFetch(() => json(200, { data: [], has_more: false, next_cursor: null }));
  const run: Run = { exitCodes: [], stdout: '', stderr: '', requests };
  const deps: ReviewCommandDeps = {
    env: { ASSAY_REVIEWER_CREDENTIAL: 'assay_rvw_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', ASSAY_BASE_URL: 'http://assay.test' },
    stdout: { write: (text) => (run.stdout += text) },
    stderr: { write: (text) => (run.stderr += text), isTTY: false },
    exit: (code) => run.exitCodes.push(code),
    actionTimeoutMs: 1_000,
    fetch,
  };
  const program = new Command('assay').exitOverride().configureOutput({ writeOut: (text) => (run.stdout += text), writeErr: (text) => (run.stderr += text) });
  registerReviewCommands(program.command('assessments'), deps);
  await program.parseAsync(['assessments', ...args], { from: 'user' }).catch((error: unknown) => {
    if (!(error instanceof CommanderError)) throw error;
  });
  return run;
}

describe('assay assessments pending', () => {
  it('asks the queue for one stage and one reviewer group', async () => {
    const run = await assessments('pending', '--stage', 'security', '--group', 'sec-team', '--mine', '--json');
    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(run.requests).toHaveLength(1);
    const url = new URL(run.requests[0].url);
    expect(url.pathname).toBe('/v1/review/assessments');
    expect(Object.fromEntries(url.searchParams)).toEqual({ stage: 'security', group: 'sec-team', claimed_by_me: 'true' });
  });

  it('sends neither filter when none is given', async () => {
    const run = await assessments('pending');
    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(new URL(run.requests[0].url).search).toBe('');
  });

  it.each([['--stage', 'Security'], ['--group', 'a b'], ['--group', 'x'.repeat(33)]])('refuses %s %j as a usage error without asking the API', async (flag, value) => {
    const run = await assessments('pending', flag, value);
    expect(run.exitCodes).toContain(ExitCode.Usage);
    expect(run.stderr).toContain('must be 1-32 characters of a-z, 0-9, _ and -');
    expect(run.requests).toHaveLength(0);
  });
});
