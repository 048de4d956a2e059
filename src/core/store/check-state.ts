/**
 * The shape check for a store state that arrives from outside (a server's state script, another
 * tab, storage): JSON of the wrong shape would otherwise sit in the store and break its readers.
 */
import { INVALID } from '../schema/types.js';

/**
 * Throws a TypeError naming the first part of `state` that is not what a store state holds:
 * records where records belong, an object, array or INVALID per entity, numbers for times.
 * @example checkState(JSON.parse(text)); // TypeError: The state at meta["GET /todos"] is not an object.
 */
export function checkState(state: unknown): void {
  const fail = (where: string, what = 'an object'): never => {
    throw new TypeError(`The state at ${where} is not ${what}.`);
  };
  /** The entries of a record (not null, not an array). */
  const entries = (value: unknown, where: string): [string, unknown][] =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value)
      : fail(where);
  const walk = (value: unknown, where: string, check: (entry: any, where: string) => void) => {
    for (const [key, entry] of entries(value, where)) {
      check(entry, `${where}[${JSON.stringify(key)}]`);
    }
  };
  const times = (fields: string) => (meta: any, where: string) => {
    entries(meta, where);
    for (const field of fields.split(' ')) {
      if (typeof meta[field] !== 'number') fail(`${where}.${field}`, 'a number');
    }
  };
  const root = state as Record<string, unknown>;
  entries(root, 'its root');
  const part = (name: string, check: (entry: any, where: string) => void) =>
    walk(root[name] ?? {}, name, check);
  // An entity is an object, a collection's list an array, a deleted one INVALID.
  part('entities', (table, where) =>
    walk(table, where, (row, at) => {
      if (row !== INVALID && (row === null || typeof row !== 'object')) fail(at);
    }),
  );
  part('entitiesMeta', (table, where) => walk(table, where, times('date fetchedAt')));
  part('endpoints', () => {});
  part('meta', (meta, where) => {
    times('date fetchedAt expiresAt')(meta, where);
    // Sent back as a request header on the next revalidation.
    if (meta.validator !== undefined && typeof meta.validator !== 'string') {
      fail(`${where}.validator`, 'a string');
    }
  });
  part('errors', times('fetchedAt expiresAt'));
  if (root.lastReset !== undefined && typeof root.lastReset !== 'number') {
    fail('lastReset', 'a number');
  }
}
