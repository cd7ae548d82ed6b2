import type { OperatorAssessmentView } from '../../common/review/assessment-review-client';
import type { PendingAssessment } from '../../common/review/pending-assessment';
import type { AssessmentReviewSnapshot } from '../../contract';

const NAME_WIDTH = 40;

/** The review queue as a table, earliest deadline first; an overdue wait is marked so it stands out. */
export function formatPending(pending: readonly PendingAssessment[], now: Date): string {
  if (pending.length === 0) return 'No assessments are waiting for review.\n';
  const rows = pending.map((assessment) => [
    assessment.assessment_id,
    assessment.organization_id,
    assessment.checks_completed ? assessment.status : `${assessment.status} (checks running)`,
    assessment.claim?.reviewer ?? '-',
    formatDue(assessment.due_at, now),
    truncate(assessment.name, NAME_WIDTH),
  ]);
  return table([['ID', 'ORG', 'STATUS', 'REVIEWER', 'DUE', 'NAME'], ...rows]);
}

/** How to ask for the page after this one, when there is one. */
export function formatNextPage(nextCursor: string | null): string {
  return nextCursor === null ? '' : `More: add --cursor ${nextCursor} (with the same filters), or --all for every page.\n`;
}

/** Everything a reviewer needs on one screen; the graph itself only in --json. */
export function formatAssessment(view: OperatorAssessmentView, now: Date): string {
  const lines = [
    `${view.assessment_id} (organisation ${view.organization_id})`,
    `name:        ${view.name}`,
    `status:      ${view.status}${view.claim ? `, claimed by ${view.claim.reviewer} at ${view.claim.claimed_at}` : ''}`,
    `created:     ${view.created_at}`,
    `updated:     ${view.updated_at}`,
  ];
  if (view.due_at) lines.push(`due:         ${view.due_at} (${formatDue(view.due_at, now)})`);
  for (const escalation of view.escalations) lines.push(`escalation:  ${escalation.kind} at ${escalation.at}`);
  if (view.review) {
    lines.push(`review:      ${view.review.verdict} by ${view.review.reviewer} at ${view.review.completed_at}`);
    lines.push(...indent(view.review.notes));
  }
  lines.push(`graph:       ${view.graph.components.length} components, ${view.graph.links.length} links (--json prints them)`);
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

export function formatTransition(assessmentId: string, snapshot: AssessmentReviewSnapshot): string {
  if (snapshot.review) {
    return `${assessmentId} completed: ${snapshot.review.verdict} by ${snapshot.review.reviewer}\n`;
  }
  if (snapshot.claim) {
    return `${assessmentId} claimed by ${snapshot.claim.reviewer} (under_review; verdict due ${snapshot.due_at})\n`;
  }
  return `${assessmentId} released to the queue (submitted; claim due ${snapshot.due_at})\n`;
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
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
