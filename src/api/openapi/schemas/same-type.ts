/**
 * `true` only when A and B are assignable both ways. A schema file declares
 * `const _matches: SameType<z.output<typeof schema>, Resource> = true`, so a resource type that
 * changes without its documented schema (or the reverse) stops `npm run build`.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
