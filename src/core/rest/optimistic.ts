/**
 * The usual optimistic guess of each mutation method, used when an endpoint has
 * `optimistic: true` and no `getOptimisticResponse` of its own.
 */
import type { Snapshot } from '../protocol/types.js';
import type { EntityClass } from '../schema/types.js';
import { PLACEHOLDER_PK } from '../schema/types.js';
import { assignOwn, once } from '../util/own.js';
import { holdsEntity, isEntityClass, isObject, isRecord } from '../schema/is.js';

/** The parts of an endpoint the default guesses need. */
export interface OptimisticSource {
  readonly method: string;
  readonly schema?: unknown;
  splitArgs(args: readonly unknown[]): [Record<string, unknown>, unknown];
}

type Guess = (snapshot: Snapshot, ...args: any[]) => unknown;
/** A schema that picks an entity class from a value (schema.Union). */
type Chooser = { entityFor?(value: object): EntityClass | undefined };

function spread(from: object, body: unknown): Record<string, unknown> {
  const out = assignOwn({}, from) as Record<string, unknown>;
  if (isRecord(body)) assignOwn(out, body);
  return out;
}

/** Placeholder pks of optimistic creates, by their body: the same on every replay of one call. */
let placeholderCount = 0;
const placeholderOf = once((_source: object) => `optimistic-${++placeholderCount}`);

/**
 * The default `getOptimisticResponse` for an endpoint's method: PUT and POST give params and body
 * together (a POST's entity without a pk gets a placeholder one); PATCH merges the body into the
 * stored entity, the one a Collection's `move` or `remove` names too (nothing is applied when
 * there is none, since a partial body alone would show a half-empty record); DELETE gives the
 * params, from which Invalidate computes the pk. Other methods have no guess. One function per
 * endpoint: the same endpoint gives the same guess each time it is asked.
 * @example const guess = defaultOptimisticResponse(endpoint); guess?.(snapshot, { id: 1 }, { title: 'x' });
 */
export const defaultOptimisticResponse = once((endpoint: OptimisticSource): Guess | undefined => {
  const { method } = endpoint;
  if (!['PUT', 'POST', 'PATCH', 'DELETE'].includes(method)) return undefined;
  return (snapshot, ...args) => {
    const [params, body] = endpoint.splitArgs(args);
    if (method == 'DELETE') return params;
    const value = spread(params, body);
    // What the schema stores its entity by: a Collection's member, or the schema itself.
    const members = (endpoint.schema as { schema?: unknown } | null | undefined)?.schema;
    const schema = Array.isArray(members) ? members[0] : endpoint.schema;
    if (method == 'POST' && holdsEntity(schema)) {
      // A create whose body has no pk (the server assigns it) is shown at once under a
      // placeholder, attached whatever pk() gives now: normalize uses it only for a pk it refuses
      // (none, '', NaN…), so the rules live in one place. Not enumerable: never stored.
      const source = isObject(body) ? body : value;
      Object.defineProperty(value, PLACEHOLDER_PK, { value: placeholderOf(source) });
    }
    if (method != 'PATCH') return value;
    // A Union's member is the one its type field (in the params or the body) names.
    const entity = isEntityClass(schema)
      ? schema
      : (schema as Chooser | undefined)?.entityFor?.(value);
    if (!entity) return value;
    // The pk is in the params (partialUpdate, move) or the body (getList.remove).
    const stored = snapshot.get(entity, value);
    if (stored === undefined) throw snapshot.abort;
    return spread(stored, body);
  };
});
