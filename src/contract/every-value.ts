/**
 * `true` only when the list names every value of the union T. The union is declared once, in the
 * SDK's wire types; a list the validation schemas and the workflows need at run time is written
 * `[…] as const satisfies readonly T[]` (no value outside T) and held to this (no value of T left out).
 */
export type ListsEveryValue<T, List extends readonly unknown[]> = [Exclude<T, List[number]>] extends [never] ? true : false;
