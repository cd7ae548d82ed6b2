/** A value a client sent, cut short enough to quote in an error message. */
export function quotedInput(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
