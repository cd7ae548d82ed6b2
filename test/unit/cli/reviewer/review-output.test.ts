import type { OperatorAssessmentView } from '../../../../src/common/review/assessment-review-client';
import type { PendingAssessment } from '../../../../src/common/review/pending-assessment';
import { formatAssessment, formatNextPage, formatPending, formatTransition } from '../../../../src/cli/reviewer/review-output';

const NOW = new Date('2030-01-03T12:00:00.000Z');

const WAITING: PendingAssessment = {
  assessment_id: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
  organization_id: 'acme',
  name: 'Web shop',
  status: 'submitted',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:01.000Z',
  checks_completed: true,
  due_at: '2030-01-03T00:00:00.000Z',
  escalations: [{ kind: 'claim_overdue', at: '2030-01-03T00:00:00.000Z' }],
};

const CLAIMED: PendingAssessment = {
  ...WAITING,
  assessment_id: 'asmt_01JBBBBBBBBBBBBBBBBBBBBBBB',
  organization_id: 'globex',
  name: 'A very long name for an architecture that goes on and on',
  status: 'under_review',
  claim: { reviewer: 'alice', claimed_at: '2030-01-03T11:00:00.000Z' },
  due_at: '2030-01-08T11:00:00.000Z',
  escalations: [],
};

describe('the pending list', () => {
  it('is a table with reviewer, deadline (overdue ones marked) and a shortened name', () => {
    expect(formatPending([WAITING, CLAIMED], NOW)).toBe(
      [
        'ID                               ORG     STATUS        REVIEWER  DUE             NAME',
        'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA  acme    submitted     -         OVERDUE 12h00m  Web shop',
        'asmt_01JBBBBBBBBBBBBBBBBBBBBBBB  globex  under_review  alice     in 4d23h        A very long name for an architecture th…',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing waits', () => {
    expect(formatPending([], NOW)).toBe('No assessments are waiting for review.\n');
  });

  it('marks an assessment whose checks still run', () => {
    expect(formatPending([{ ...WAITING, checks_completed: false }], NOW)).toContain('submitted (checks running)');
  });

  it('says how to ask for the next page only when there is one', () => {
    expect(formatNextPage('abc.def')).toBe('More: add --cursor abc.def (with the same filters), or --all for every page.\n');
    expect(formatNextPage(null)).toBe('');
  });
});

describe('one assessment', () => {
  const view: OperatorAssessmentView = {
    assessment_id: CLAIMED.assessment_id,
    organization_id: 'globex',
    workflow_status: 'COMPLETED',
    name: 'Web shop',
    status: 'completed',
    created_at: CLAIMED.created_at,
    updated_at: '2030-01-03T11:30:00.000Z',
    expires_at: '2030-02-02T11:30:00.000Z',
    escalations: [{ kind: 'claim_overdue', at: '2030-01-03T00:00:00.000Z' }],
    findings: [{ check: 'missing_redundancy', severity: 'high', message: "'db' is the only database.", component_ids: ['db'] }],
    review: { verdict: 'approved', notes: 'Fine for now.\nRevisit in Q3.', reviewer: 'alice', completed_at: '2030-01-03T11:30:00.000Z' },
    context: 'The EU shop.',
    graph: { components: [{ id: 'db', kind: 'database', zone: 'eu-1a' }], links: [] },
  };

  it('shows status, escalations, review, graph size, context and findings', () => {
    expect(formatAssessment(view, NOW)).toBe(
      [
        'asmt_01JBBBBBBBBBBBBBBBBBBBBBBB (organisation globex)',
        'name:        Web shop',
        'status:      completed',
        `created:     ${CLAIMED.created_at}`,
        'updated:     2030-01-03T11:30:00.000Z',
        'escalation:  claim_overdue at 2030-01-03T00:00:00.000Z',
        'review:      approved by alice at 2030-01-03T11:30:00.000Z',
        '  Fine for now.',
        '  Revisit in Q3.',
        'graph:       1 components, 0 links (--json prints them)',
        'context:',
        '  The EU shop.',
        'findings:    1',
        "  high     missing_redundancy: 'db' is the only database.",
        '',
      ].join('\n'),
    );
  });

  it('says when the checks have not finished and when the workflow ended abnormally', () => {
    const { findings: _findings, ...running } = view;
    const text = formatAssessment({ ...running, workflow_status: 'TERMINATED' }, NOW);
    expect(text).toContain('findings:    the automated checks are still running');
    expect(text).toContain('workflow:    TERMINATED');
  });
});

describe('a transition', () => {
  it.each([
    ['a claim', { status: 'under_review', claim: { reviewer: 'alice', claimed_at: 'x' }, due_at: 'D' }, 'asmt_1 claimed by alice (under_review; verdict due D)\n'],
    ['a release', { status: 'submitted', due_at: 'D' }, 'asmt_1 released to the queue (submitted; claim due D)\n'],
    ['a completion', { status: 'completed', review: { verdict: 'rejected', reviewer: 'bob' } }, 'asmt_1 completed: rejected by bob\n'],
  ])('is one line for %s', (_case, snapshot, line) => {
    expect(formatTransition('asmt_1', { updated_at: 'u', checks_completed: true, escalations: [], ...snapshot } as never)).toBe(line);
  });
});
