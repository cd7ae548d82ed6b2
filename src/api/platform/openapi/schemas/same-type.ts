/**
 * `true` only when A and B are assignable both ways. A schema file declares
 * `const _matches: SameType<z.output<typeof schema>, Resource> = true`, so a resource type that
 * changes without its documented schema (or the reverse) stops `npm run build`.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A union of object types as the one object a flat schema describes: the keys every member has
 * stay required, the others become optional, each with the union of its members' value types.
 */
export type Merged<U> = Pick<U, keyof U> & { [K in U extends unknown ? keyof U : never]?: U extends { [P in K]?: infer V } ? V : never };
