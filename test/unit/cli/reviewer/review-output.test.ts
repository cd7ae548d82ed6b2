import type { OperatorAssessmentView, PendingAssessment } from '../../../../src/contract/wire';
import { formatAssessment, formatNextPage, formatPending, formatTransition } from '../../../../src/cli/reviewer/review-output';
import { reviewStage } from '../../../support/review-stage';

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
  stage: null,
  group: null,
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
  stage: 'security',
  group: 'security',
};

describe('the pending list', () => {
  it('is a table with stage and group, reviewer, deadline (overdue ones marked) and a shortened name', () => {
    expect(formatPending([WAITING, CLAIMED], NOW)).toBe(
      [
        'ID                               ORG     STATUS        STAGE (GROUP)        REVIEWER  DUE             NAME',
        'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA  acme    submitted     -                    -         OVERDUE 12h00m  Web shop',
        'asmt_01JBBBBBBBBBBBBBBBBBBBBBBB  globex  under_review  security (security)  alice     in 4d23h        A very long name for an architecture th…',
        '',
      ].join('\n'),
    );
  });

  it('names a stage any reviewer may take without a group', () => {
    expect(formatPending([{ ...WAITING, stage: 'review', group: null }], NOW)).toContain('  submitted  review         -  ');
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
    revision_of: null,
    revised_by: null,
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

describe('a pipeline', () => {
  const NETWORK = reviewStage('network', 'network', 'approved', {
    reviews: [{ reviewer: 'nina', verdict: 'approved', notes: 'Zones look right.', at: '2030-01-03T10:00:00.000Z' }],
    started_at: '2030-01-03T09:00:00.000Z',
    completed_at: '2030-01-03T10:00:00.000Z',
  });
  const SECURITY = reviewStage('security', 'security', 'active', {
    approvals_required: 2,
    reviews: [{ reviewer: 'sam', verdict: 'approved', notes: 'TLS everywhere.\nOK.', at: '2030-01-03T11:00:00.000Z' }],
    claim: { reviewer: 'sara', claimed_at: '2030-01-03T11:30:00.000Z' },
    started_at: '2030-01-03T10:00:00.000Z',
    due_at: '2030-01-05T11:30:00.000Z',
  });
  const view = {
    assessment_id: 'asmt_01JCCCCCCCCCCCCCCCCCCCCCCC',
    organization_id: 'globex',
    workflow_status: 'RUNNING',
    name: 'Web shop v2',
    status: 'under_review' as const,
    created_at: '2030-01-03T08:00:00.000Z',
    updated_at: '2030-01-03T11:30:00.000Z',
    expires_at: null,
    escalations: [{ kind: 'claim_overdue' as const, at: '2030-01-03T09:30:00.000Z', stage: 'network' }],
    findings: [],
    claim: SECURITY.claim,
    due_at: SECURITY.due_at,
    context: '',
    graph: { components: [{ id: 'db', kind: 'database', zone: 'eu-1a' }], links: [] },
    stage: 'security',
    stages: [NETWORK, SECURITY, reviewStage('board', null, 'pending')],
    revision_of: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
    revised_by: null,
    revision: {
      of: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
      components_added: ['db-2'],
      components_removed: ['app-2'],
      links_added: [{ from: 'app-1', to: 'db-2', kind: 'tcp' }],
      links_removed: [{ from: 'lb', to: 'app-2' }],
      findings_fixed: [{ check: 'missing_redundancy', severity: 'high' as const, message: "'db' is the only database.", component_ids: ['db'] }],
      findings_new: [],
    },
  };

  it('shows the active stage, every stage with its verdicts, the revision links and what changed', () => {
    expect(formatAssessment(view, NOW)).toBe(
      [
        'asmt_01JCCCCCCCCCCCCCCCCCCCCCCC (organisation globex)',
        'name:        Web shop v2',
        'status:      under_review, claimed by sara at 2030-01-03T11:30:00.000Z',
        'stage:       security (group security; 1 of 2 approvals)',
        'created:     2030-01-03T08:00:00.000Z',
        'updated:     2030-01-03T11:30:00.000Z',
        'due:         2030-01-05T11:30:00.000Z (in 47h30m)',
        'escalation:  claim_overdue at 2030-01-03T09:30:00.000Z (stage network)',
        'revision of: asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
        'stages:',
        '  1. network   approved  group network   1/1 approvals  ended 2030-01-03T10:00:00.000Z',
        '       approved by nina at 2030-01-03T10:00:00.000Z',
        '         Zones look right.',
        '  2. security  active    group security  1/2 approvals  claimed by sara at 2030-01-03T11:30:00.000Z; due 2030-01-05T11:30:00.000Z',
        '       approved by sam at 2030-01-03T11:00:00.000Z',
        '         TLS everywhere.',
        '         OK.',
        '  3. board     pending   any reviewer    0/1 approvals',
        'graph:       1 components, 0 links (--json prints them)',
        'changes:     since asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
        '  components added:   db-2',
        '  components removed: app-2',
        '  links added:        app-1 -> db-2 (tcp)',
        '  links removed:      lb -> app-2',
        '  findings fixed:     1',
        "    high     missing_redundancy: 'db' is the only database.",
        '  findings new:       none',
        'context:     (none)',
        'findings:    0',
        '',
      ].join('\n'),
    );
  });

  it('names the revision that revises an assessment', () => {
    expect(formatAssessment({ ...view, revision_of: null, revision: undefined, revised_by: 'asmt_01JDDDDDDDDDDDDDDDDDDDDDDD' }, NOW)).toContain('\nrevised by:  asmt_01JDDDDDDDDDDDDDDDDDDDDDDD\n');
  });
});

describe('a transition', () => {
  // The workflow stamps a verdict with the transition's time: `updated_at` below is 'u'.
  const SECURITY_STAGE = reviewStage('security', 'security', 'active', { approvals_required: 2, reviews: [{ reviewer: 'sam', verdict: 'approved', notes: 'n', at: 'u' }] });
  it.each([
    ['a claim', { status: 'under_review', claim: { reviewer: 'alice', claimed_at: 'x' }, due_at: 'D' }, 'asmt_1 claimed by alice (under_review; verdict due D)\n'],
    ['a release', { status: 'submitted', due_at: 'D' }, 'asmt_1 released to the queue (submitted; claim due D)\n'],
    ['a completion', { status: 'completed', review: { verdict: 'rejected', reviewer: 'bob' } }, 'asmt_1 completed: rejected by bob\n'],
    [
      'a claim of a stage',
      { status: 'under_review', claim: { reviewer: 'sam', claimed_at: 'x' }, due_at: 'D', stage: 'security', stages: [{ ...SECURITY_STAGE, reviews: [] }] },
      'asmt_1 claimed by sam in stage security (under_review; 0 of 2 approvals; verdict due D)\n',
    ],
    [
      'a release of a stage',
      { status: 'under_review', due_at: 'D', stage: 'security', stages: [{ ...SECURITY_STAGE, reviews: [] }] },
      'asmt_1 released to the queue: stage security waits for a claim by group security (under_review; 0 of 2 approvals; claim due D)\n',
    ],
    [
      "a four-eyes stage's first approval",
      { status: 'under_review', due_at: 'D', stage: 'security', stages: [SECURITY_STAGE] },
      'asmt_1 approved by sam in stage security; it needs another reviewer: stage security waits for a claim by group security (under_review; 1 of 2 approvals; claim due D)\n',
    ],
    [
      'an approval that moves to the next stage',
      {
        status: 'under_review',
        due_at: 'D',
        stage: 'security',
        stages: [reviewStage('network', null, 'approved', { reviews: [{ reviewer: 'nina', verdict: 'approved', notes: 'n', at: 'u' }] }), { ...SECURITY_STAGE, reviews: [] }],
      },
      'asmt_1 stage network approved by nina; stage security waits for a claim by group security (under_review; 0 of 2 approvals; claim due D)\n',
    ],
  ])('is one line for %s', (_case, snapshot, line) => {
    expect(formatTransition('asmt_1', { updated_at: 'u', checks_completed: true, escalations: [], ...snapshot } as never)).toBe(line);
  });
});
