import type { NetworkComponent } from '../contract';

const IDS_NAMED_IN_A_MESSAGE = 5;

/** "'a', 'b' and 'c'", or "'a', 'b', 'c', 'd', 'e' and 7 more" so a message stays short. */
export function listIds(ids: readonly string[]): string {
  const quoted = ids.slice(0, IDS_NAMED_IN_A_MESSAGE).map((id) => `'${id}'`);
  const omitted = ids.length - quoted.length;
  if (omitted > 0) {
    return `${quoted.join(', ')} and ${omitted} more`;
  }
  if (quoted.length <= 1) {
    return quoted.join('');
  }
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/** "'db-1' (database, zone eu-1a)": enough for a reviewer to find the component in the diagram. */
export function describeComponent(component: NetworkComponent): string {
  return `'${component.id}' (${component.kind}, zone ${component.zone})`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Code-unit order rather than localeCompare: the result must not depend on the worker's locale,
 * or a replay on another machine could order findings differently.
 */
export function compareStrings(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
