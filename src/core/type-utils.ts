/** Flattens an intersection into one object type, so editors show `{ a: …; b: … }`. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};
