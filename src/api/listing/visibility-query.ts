/** A visibility query from clauses joined with AND; values are quoted and escaped here only. */
export function visibilityQuery(clauses: string[]): string {
  return clauses.join(' AND ');
}

export function equals(attribute: string, value: string): string {
  return `${attribute} = ${quote(value)}`;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
