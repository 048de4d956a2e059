/**
 * The usual optimistic guess of each mutation method, used when an endpoint has
 * `optimistic: true` and no `getOptimisticResponse` of its own.
 */
import type { Snapshot } from '../protocol/types.js';
import type { EntityClass } from '../schema/types.js';
import { assignOwn } from '../util/own.js';

/** The parts of an endpoint the default guesses need. */
export interface OptimisticSource {
  readonly method: string;
  readonly schema?: unknown;
  splitArgs(args: readonly unknown[]): [Record<string, unknown>, unknown];
}

type Guess = (snapshot: Snapshot, ...args: any[]) => unknown;

function isEntity(schema: unknown): schema is EntityClass {
  return (
    typeof schema === 'function' &&
    typeof (schema as { pk?: unknown }).pk === 'function' &&
    typeof (schema as { fromJS?: unknown }).fromJS === 'function'
  );
}

function spread(params: Record<string, unknown>, body: unknown): Record<string, unknown> {
  const out = assignOwn({}, params);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) assignOwn(out, body);
  return out;
}

/**
 * The default `getOptimisticResponse` for an endpoint's method: PUT and POST give params and body
 * together; PATCH merges the body into the stored entity (nothing is applied when there is none,
 * since a partial body alone would show a half-empty record); DELETE gives the params, from which
 * Invalidate computes the pk. Other methods have no guess.
 * @example const guess = defaultOptimisticResponse(endpoint); guess?.(snapshot, { id: 1 }, { title: 'x' });
 */
export function defaultOptimisticResponse(endpoint: OptimisticSource): Guess | undefined {
  switch (endpoint.method) {
    case 'PUT':
    case 'POST':
      return (_snapshot, ...args) => {
        const [params, body] = endpoint.splitArgs(args);
        return spread(params, body);
      };
    case 'PATCH':
      return (snapshot, ...args) => {
        const [params, body] = endpoint.splitArgs(args);
        const { schema } = endpoint;
        if (!isEntity(schema)) return spread(params, body);
        const stored = snapshot.get(schema, params);
        if (stored === undefined) throw snapshot.abort;
        return spread(assignOwn({}, stored), body);
      };
    case 'DELETE':
      return (_snapshot, ...args) => endpoint.splitArgs(args)[0];
    default:
      return undefined;
  }
}
