import type { Finding, FindingSeverity } from '../../src/sdk';

/** Worst first: a component named by several findings is drawn in the worst one's colour. */
export const SEVERITY_ORDER: readonly FindingSeverity[] = ['critical', 'high', 'medium', 'low', 'info'];

/** Readable on white and told apart without colour too: the findings list names each severity. */
export const SEVERITY_COLOURS: Record<FindingSeverity, string> = {
  critical: '#b3001b',
  high: '#c2410c',
  medium: '#a16207',
  low: '#1d4ed8',
  info: '#4b5563',
};

export const SINGLE_POINT_OF_FAILURE = 'single_point_of_failure';

export interface ComponentMark {
  severity: FindingSeverity;
  singlePointOfFailure: boolean;
}

/** The worst severity of the findings naming each component, and whether one calls it a single point of failure. */
export function componentMarks(findings: readonly Finding[]): Map<string, ComponentMark> {
  const marks = new Map<string, ComponentMark>();
  for (const finding of findings) {
    for (const id of finding.component_ids) {
      const current = marks.get(id);
      const worse = !current || SEVERITY_ORDER.indexOf(finding.severity) < SEVERITY_ORDER.indexOf(current.severity);
      marks.set(id, {
        severity: worse ? finding.severity : current.severity,
        singlePointOfFailure: (current?.singlePointOfFailure ?? false) || finding.check === SINGLE_POINT_OF_FAILURE,
      });
    }
  }
  return marks;
}
