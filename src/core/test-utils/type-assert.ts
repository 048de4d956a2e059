/** True when A and B are the same type (not merely assignable to each other). */
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile unless T is `true`. */
export type Expect<T extends true> = T;
