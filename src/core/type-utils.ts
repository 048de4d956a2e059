/** Flattens an intersection into one object type, so editors show `{ a: …; b: … }`. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The data fields of an entity type: its members that are not methods, as the type has them.
 * @example DataFields<Todo> // { id: string; title: string }
 */
export type DataFields<T> = {
  [K in keyof T as T[K] extends (...args: any[]) => unknown ? never : K]: T[K];
};
