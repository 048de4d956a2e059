/**
 * The usual optimistic guess of each mutation method, used when an endpoint has
 * `optimistic: true` and no `getOptimisticResponse` of its own.
 */
import type { Snapshot } from '../protocol/types.js';
import type { EntityClass } from '../schema/types.js';
import { PLACEHOLDER_PK } from '../schema/types.js';
import { assignOwn } from '../util/own.js';
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

function spread(params: Record<string, unknown>, body: unknown): Record<string, unknown> {
  const out = assignOwn({}, params);
  if (isRecord(body)) assignOwn(out, body);
  return out;
}

/** Placeholder pks of optimistic creates, by their body: the same on every replay of one call. */
const placeholders = new WeakMap<object, string>();
let placeholderCount = 0;

/** What a mutation's schema stores its entity by: a Collection's member, or the schema itself. */
function memberOf(schema: unknown): unknown {
  const members = (schema as { schema?: unknown } | null | undefined)?.schema;
  return Array.isArray(members) ? members[0] : schema;
}

/**
 * A create whose body has no pk (the server assigns it) is shown at once under a placeholder pk;
 * the server's answer replaces it (the optimistic entry goes away as the response commits).
 */
function withPlaceholder(
  schema: unknown,
  value: Record<string, unknown>,
  body: unknown,
): Record<string, unknown> {
  // Attached whatever pk() gives now: normalize uses it only for a pk it refuses (none, '',
  // "undefined", NaN), so the rules live in one place.
  if (!holdsEntity(memberOf(schema))) return value;
  const source = isObject(body) ? body : value;
  let placeholder = placeholders.get(source);
  if (placeholder === undefined) {
    placeholder = `optimistic-${++placeholderCount}`;
    placeholders.set(source, placeholder);
  }
  // Not enumerable: it never reaches the stored data, only normalize looks for it.
  Object.defineProperty(value, PLACEHOLDER_PK, { value: placeholder });
  return value;
}

/**
 * The default `getOptimisticResponse` for an endpoint's method: PUT and POST give params and body
 * together; PATCH merges the body into the stored entity, the one a Collection's `move` or
 * `remove` names too (nothing is applied when there is none,
 * since a partial body alone would show a half-empty record); DELETE gives the params, from which
 * Invalidate computes the pk. Other methods have no guess.
 * @example const guess = defaultOptimisticResponse(endpoint); guess?.(snapshot, { id: 1 }, { title: 'x' });
 */
export function defaultOptimisticResponse(endpoint: OptimisticSource): Guess | undefined {
  switch (endpoint.method) {
    case 'PUT':
      return (_snapshot, ...args) => {
        const [params, body] = endpoint.splitArgs(args);
        return spread(params, body);
      };
    case 'POST':
      return (_snapshot, ...args) => {
        const [params, body] = endpoint.splitArgs(args);
        return withPlaceholder(endpoint.schema, spread(params, body), body);
      };
    case 'PATCH':
      return (snapshot, ...args) => {
        const [params, body] = endpoint.splitArgs(args);
        const value = spread(params, body);
        // A Collection's move or remove updates its member. A Union's member is the one its type
        // field (in the params or the body) names.
        const schema = memberOf(endpoint.schema);
        const entity = isEntityClass(schema)
          ? schema
          : (schema as Chooser | undefined)?.entityFor?.(value);
        if (entity === undefined) return value;
        // The pk is in the params (partialUpdate, move) or the body (getList.remove).
        const stored = snapshot.get(entity, value);
        if (stored === undefined) throw snapshot.abort;
        return spread(assignOwn({}, stored), body);
      };
    case 'DELETE':
      return (_snapshot, ...args) => endpoint.splitArgs(args)[0];
    default:
      return undefined;
  }
}
