/**
 * The `schema` namespace: `schema.Collection`, `schema.Invalidate`, `schema.Array`,
 * `schema.Object`, `schema.Values`, `schema.Union`.
 */
export { ArraySchema as Array } from './array.js';
export { ObjectSchema as Object } from './object.js';
export { ValuesSchema as Values } from './values.js';
export { UnionSchema as Union } from './union.js';
export { Collection } from './collection.js';
export { Invalidate } from './invalidate.js';
