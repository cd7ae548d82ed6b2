/** A visibility query from clauses joined with AND; values are quoted and escaped here only. */
export function visibilityQuery(clauses: string[]): string {
  return clauses.join(' AND ');
}

/** Either clause: `(a OR b)`. */
export function either(first: string, second: string): string {
  return `(${first} OR ${second})`;
}

export function oneOf(attribute: string, values: readonly string[]): string {
  return `${attribute} IN (${values.map(quote).join(', ')})`;
}

export function notEquals(attribute: string, value: string): string {
  return `${attribute} != ${quote(value)}`;
}

export function equals(attribute: string, value: string): string {
  return `${attribute} = ${quote(value)}`;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
