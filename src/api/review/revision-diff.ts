import type { Finding, NetworkGraph, NetworkLink } from '../../contract';
import type { AssessmentRevisionDiff } from '../../contract/wire';

export interface RevisionSide {
  graph: NetworkGraph;
  /** Undefined while the assessment's checks run. */
  findings: Finding[] | undefined;
}

/**
 * Compares a revision with the assessment it revises: components by id, links by their ends and
 * kind, findings by check and the set of components they name (a finding's message may word the
 * same problem differently from one graph to the next, so it is not compared).
 */
export function revisionDiff(of: string, older: RevisionSide, newer: RevisionSide): AssessmentRevisionDiff {
  const diff: AssessmentRevisionDiff = {
    of,
    components_added: onlyIn(newer.graph.components, older.graph.components, (component) => component.id).map((component) => component.id),
    components_removed: onlyIn(older.graph.components, newer.graph.components, (component) => component.id).map((component) => component.id),
    links_added: onlyIn(newer.graph.links, older.graph.links, linkKey),
    links_removed: onlyIn(older.graph.links, newer.graph.links, linkKey),
  };
  if (older.findings && newer.findings) {
    diff.findings_fixed = onlyIn(older.findings, newer.findings, findingKey);
    diff.findings_new = onlyIn(newer.findings, older.findings, findingKey);
  }
  return diff;
}

/** The items of `these` whose key none of `those` has. */
function onlyIn<T>(these: readonly T[], those: readonly T[], key: (item: T) => string): T[] {
  const present = new Set(those.map(key));
  return these.filter((item) => !present.has(key(item)));
}

// JSON arrays: no separator a component id or kind could contain makes two keys collide.
function linkKey(link: NetworkLink): string {
  return JSON.stringify([link.from, link.to, link.kind ?? null]);
}

function findingKey(finding: Finding): string {
  return JSON.stringify([finding.check, [...finding.component_ids].sort()]);
}
