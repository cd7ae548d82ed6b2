import type { Finding, FindingSeverity } from '../contract';
import { compareStrings, plural } from './finding-text';

/**
 * Findings kept per check. Bounds the activity result well below Temporal's payload limit
 * (2 MB per payload): nine checks of at most 100 findings each, a few hundred bytes apiece.
 */
export const MAX_FINDINGS_PER_CHECK = 100;

export const FINDINGS_TRUNCATED_CHECK = 'findings_truncated';

const SEVERITY_RANK: Record<FindingSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** Most severe first, then by check name, then by the components named, then by message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareStrings(a.check, b.check) ||
    compareStrings(a.component_ids[0] ?? '', b.component_ids[0] ?? '') ||
    compareStrings(a.component_ids.join('\n'), b.component_ids.join('\n')) ||
    compareStrings(a.message, b.message)
  );
}

/**
 * Sorts into the stable order and keeps the first MAX_FINDINGS_PER_CHECK of each check (its most
 * severe ones), adding one `findings_truncated` finding per check that lost some.
 */
export function orderAndCapFindings(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort(compareFindings);
  const keptPerCheck = new Map<string, number>();
  const omittedPerCheck = new Map<string, number>();
  const kept: Finding[] = [];
  for (const finding of sorted) {
    const count = keptPerCheck.get(finding.check) ?? 0;
    if (count < MAX_FINDINGS_PER_CHECK) {
      keptPerCheck.set(finding.check, count + 1);
      kept.push(finding);
    } else {
      omittedPerCheck.set(finding.check, (omittedPerCheck.get(finding.check) ?? 0) + 1);
    }
  }
  const summaries: Finding[] = [...omittedPerCheck].map(([check, omitted]) => ({
    check: FINDINGS_TRUNCATED_CHECK,
    severity: 'info',
    message: `${plural(omitted, 'more finding')} of check ${check} omitted; at most ${MAX_FINDINGS_PER_CHECK} are reported per check.`,
    component_ids: [],
  }));
  return [...kept, ...summaries.sort(compareFindings)];
}
