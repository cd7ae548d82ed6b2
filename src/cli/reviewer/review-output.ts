import type { AssessmentRevisionDiff, OperatorAssessmentView, PendingAssessment } from '../../contract/wire';
import type { AssessmentReviewSnapshot, AssessmentStage, Finding, NetworkLink } from '../../contract';

const NAME_WIDTH = 40;

/** A queue line with the active stage and its group (an API from before pipelines omits them). */

/** The review queue as a table, earliest deadline first; an overdue wait is marked so it stands out. */
export function formatPending(pending: readonly PendingAssessment[], now: Date): string {
  if (pending.length === 0) return 'No assessments are waiting for review.\n';
  const rows = pending.map((assessment) => [
    assessment.assessment_id,
    assessment.organization_id,
    assessment.checks_completed ? assessment.status : `${assessment.status} (checks running)`,
    assessment.stage ? `${assessment.stage}${assessment.group ? ` (${assessment.group})` : ''}` : '-',
    assessment.claim?.reviewer ?? '-',
    formatDue(assessment.due_at, now),
    truncate(assessment.name, NAME_WIDTH),
  ]);
  return table([['ID', 'ORG', 'STATUS', 'STAGE (GROUP)', 'REVIEWER', 'DUE', 'NAME'], ...rows]);
}

/** How to ask for the page after this one, when there is one. */
export function formatNextPage(nextCursor: string | null): string {
  return nextCursor === null ? '' : `More: add --cursor ${nextCursor} (with the same filters), or --all for every page.\n`;
}

/** Everything a reviewer needs on one screen; the graph itself only in --json. */
export function formatAssessment(view: OperatorAssessmentView, now: Date): string {
  const active = view.stages?.find((stage) => stage.state === 'active');
  const lines = [
    `${view.assessment_id} (organisation ${view.organization_id})`,
    `name:        ${view.name}`,
    `status:      ${view.status}${view.claim ? `, claimed by ${view.claim.reviewer} at ${view.claim.claimed_at}` : ''}`,
  ];
  if (active) lines.push(`stage:       ${active.name} (${describeGroup(active.group)}; ${approvalsOf(active)} of ${active.approvals_required} approvals)`);
  lines.push(`created:     ${view.created_at}`, `updated:     ${view.updated_at}`);
  if (view.due_at) lines.push(`due:         ${view.due_at} (${formatDue(view.due_at, now)})`);
  for (const escalation of view.escalations) lines.push(`escalation:  ${escalation.kind} at ${escalation.at}${escalation.stage ? ` (stage ${escalation.stage})` : ''}`);
  if (view.revision_of) lines.push(`revision of: ${view.revision_of}`);
  if (view.revised_by) lines.push(`revised by:  ${view.revised_by}`);
  if (view.stages && view.stages.length > 0) lines.push('stages:', ...formatStages(view.stages));
  if (view.review) {
    lines.push(`review:      ${view.review.verdict} by ${view.review.reviewer} at ${view.review.completed_at}`);
    lines.push(...indent(view.review.notes));
  }
  lines.push(`graph:       ${view.graph.components.length} components, ${view.graph.links.length} links (--json prints them)`);
  if (view.revision) lines.push(`changes:     since ${view.revision.of}`, ...formatChanges(view.revision));
  lines.push(`context:${view.context ? '' : '     (none)'}`, ...(view.context ? indent(view.context) : []));
  if (!view.findings) {
    lines.push('findings:    the automated checks are still running');
  } else {
    lines.push(`findings:    ${view.findings.length}`);
    for (const finding of view.findings) lines.push(`  ${finding.severity.padEnd(8)} ${finding.check}: ${finding.message}`);
  }
  if (view.workflow_status !== 'RUNNING' && view.workflow_status !== 'COMPLETED') lines.push(`workflow:    ${view.workflow_status}`);
  return `${lines.join('\n')}\n`;
}

/**
 * One line for what an action did, from the state the workflow answered with. A verdict stamps its
 * review with the time of the transition, so a review at `updated_at` tells an approval that left
 * the assessment open (a four-eyes stage's first, or a stage's that moved on) from a release.
 */
export function formatTransition(assessmentId: string, snapshot: AssessmentReviewSnapshot): string {
  if (snapshot.review) {
    return `${assessmentId} completed: ${snapshot.review.verdict} by ${snapshot.review.reviewer}\n`;
  }
  const stages = snapshot.stages ?? [];
  const active = stages.find((stage) => stage.state === 'active');
  if (!active) {
    // A state published before pipelines: one review, and a release took it back to submitted.
    if (snapshot.claim) return `${assessmentId} claimed by ${snapshot.claim.reviewer} (under_review; verdict due ${snapshot.due_at})\n`;
    return `${assessmentId} released to the queue (submitted; claim due ${snapshot.due_at})\n`;
  }
  const where = `${snapshot.status}; ${approvalsOf(active)} of ${active.approvals_required} approvals`;
  if (snapshot.claim) return `${assessmentId} claimed by ${snapshot.claim.reviewer} in stage ${active.name} (${where}; verdict due ${snapshot.due_at})\n`;
  const waits = `stage ${active.name} waits for a claim by ${describeGroup(active.group)} (${where}; claim due ${snapshot.due_at})`;
  const decided = stages.find((stage) => stage.reviews.some((review) => review.at === snapshot.updated_at));
  const review = decided?.reviews.find((candidate) => candidate.at === snapshot.updated_at);
  if (!decided || !review) return `${assessmentId} released to the queue: ${waits}\n`;
  if (decided === active) return `${assessmentId} ${review.verdict} by ${review.reviewer} in stage ${active.name}; it needs another reviewer: ${waits}\n`;
  return `${assessmentId} stage ${decided.name} ${review.verdict} by ${review.reviewer}; ${waits}\n`;
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** One line a stage, aligned, then the verdicts given in it with their notes. */
function formatStages(stages: readonly AssessmentStage[]): string[] {
  const rows = stages.map((stage, index) => [
    `${index + 1}. ${stage.name}`,
    stage.state,
    describeGroup(stage.group),
    `${approvalsOf(stage)}/${stage.approvals_required} approvals`,
    [
      stage.claim ? `claimed by ${stage.claim.reviewer} at ${stage.claim.claimed_at}` : '',
      stage.state === 'active' && stage.due_at ? `due ${stage.due_at}` : '',
      stage.completed_at ? `ended ${stage.completed_at}` : '',
    ]
      .filter(Boolean)
      .join('; '),
  ]);
  const aligned = table(rows).split('\n');
  const lines: string[] = [];
  stages.forEach((stage, index) => {
    lines.push(`  ${aligned[index]}`);
    for (const review of stage.reviews) {
      lines.push(`       ${review.verdict} by ${review.reviewer} at ${review.at}`);
      if (review.notes) lines.push(...review.notes.split('\n').map((line) => `         ${line}`));
    }
  });
  return lines;
}

function formatChanges(changes: AssessmentRevisionDiff): string[] {
  const list = (values: readonly string[]) => (values.length === 0 ? 'none' : values.join(', '));
  const link = (value: NetworkLink) => `${value.from} -> ${value.to}${value.kind ? ` (${value.kind})` : ''}`;
  const findings = (label: string, values: readonly Finding[] | undefined) => {
    if (!values) return [`  ${label}once the checks of both have run`];
    return values.length === 0 ? [`  ${label}none`] : [`  ${label}${values.length}`, ...values.map((finding) => `    ${finding.severity.padEnd(8)} ${finding.check}: ${finding.message}`)];
  };
  return [
    `  components added:   ${list(changes.components_added)}`,
    `  components removed: ${list(changes.components_removed)}`,
    `  links added:        ${list(changes.links_added.map(link))}`,
    `  links removed:      ${list(changes.links_removed.map(link))}`,
    ...findings('findings fixed:     ', changes.findings_fixed),
    ...findings('findings new:       ', changes.findings_new),
  ];
}

function describeGroup(group: string | null): string {
  return group === null ? 'any reviewer' : `group ${group}`;
}

function approvalsOf(stage: AssessmentStage): number {
  return stage.reviews.filter((review) => review.verdict === 'approved').length;
}

function formatDue(dueAt: string | undefined, now: Date): string {
  if (!dueAt) return '-';
  const remainingMs = Date.parse(dueAt) - now.getTime();
  return remainingMs < 0 ? `OVERDUE ${formatSpan(-remainingMs)}` : `in ${formatSpan(remainingMs)}`;
}

function formatSpan(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d${String(hours % 24).padStart(2, '0')}h`;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n') + '\n';
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => `  ${line}`);
}

function truncate(value: string, width: number): string {
  return value.length > width ? `${value.slice(0, width - 1)}…` : value;
}
