/**
 * Reading one response out of a store state: its denormalized data and how fresh it is.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import { INVALID } from '../schema/types.js';
import type { EntityClass, EntityTable } from '../schema/types.js';
import { isEntityClass, isObject } from '../schema/is.js';
import { isRuntimeError, shortUrl } from '../util/describe.js';
import { getOwn, hasOwn } from '../util/own.js';
import type { StoreState } from './state.js';
import { ExpiryStatus } from '../protocol/types.js';
import type { EndpointLike, ResponseInfo } from '../protocol/types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/**
 * What `getResponse` reports for `endpoint(...args)`, stored under `key`, in `state` at time
 * `now`. The caller has the key already (it keeps its reads by it): built once per read. Not
 * memoized by itself (the Controller keeps the identity of the result); `data` is, through `memo`.
 * @example readResponse(state, memo, key, TodoResource.get, [{ id: 1 }], Date.now()).expiryStatus
 */
export function readResponse(
  state: StoreState,
  memo: MemoCache,
  key: string,
  endpoint: EndpointLike,
  args: readonly unknown[],
  now: number,
): ResponseInfo {
  const { entities, endpoints } = state;
  const { schema } = endpoint;
  const meta = getOwn(state.meta, key);
  const stored = getOwn(state.errors, key);
  const error = stored && now <= stored.expiresAt ? stored.error : undefined;
  let expiresAt = meta?.expiresAt ?? 0;
  let data: unknown = INVALID;
  try {
    if (endpoint.read) {
      // Made of the store alone (a query): never stale, never fetched.
      data = endpoint.read(state, memo, key, args);
      expiresAt = Infinity;
    } else if (meta?.invalidated) {
      // shown as nothing until fetched again
    } else if (hasOwn(endpoints, key)) {
      data = endpoints[key];
      if (schema !== undefined && schema !== null) {
        data = memo.denormalize(schema, data, entities);
      }
    } else {
      // A GET of one entity that was never fetched by itself may already be in the store,
      // brought by a list or another read: shown from there (as fresh as the response that
      // brought it) instead of sending one request per entity.
      expiresAt = 0;
      const found = !endpoint.sideEffect && storedEntityOf(schema, args);
      if (found) {
        data = readEntity(entities, memo, found.entity, found.pk);
        if (data !== INVALID) {
          expiresAt =
            getOwn(getOwn(state.entitiesMeta, found.entity.key), found.pk)?.expiresAt ?? 0;
        }
      }
    }
  } catch (error) {
    throw readFailure(error, key);
  }
  const stale = now > expiresAt;
  // invalidIfStale: past its expiry the data must not be shown at all.
  const invalid = data === INVALID || (stale && endpoint.invalidIfStale);
  return {
    data: invalid ? undefined : data,
    expiryStatus: invalid ? ExpiryStatus.Invalid : stale ? ExpiryStatus.Stale : ExpiryStatus.Valid,
    expiresAt,
    error,
  };
}

/**
 * The stored entity `pk` of `entity`, denormalized; INVALID when the store has none (or a deleted
 * one).
 * @example readEntity(state.entities, memo, Todo, '1')
 */
export function readEntity(
  entities: EntityTable,
  memo: MemoCache,
  entity: EntityClass,
  pk: string,
): unknown {
  const row = getOwn(getOwn(entities, entity.key), pk);
  return row === undefined || row === INVALID ? INVALID : memo.denormalize(entity, pk, entities);
}

/**
 * What a read of the response under `key` that threw rejects with: the same, said of that read.
 * Entities written a few at a time can chain deeper than one response may (a parent of a
 * parent…), and an entity class's setter or constructor may refuse what is stored: either would
 * name no read. An error class of the app's own passes through as it is.
 */
export function readFailure(error: unknown, key: string): unknown {
  const message = String((error as Error | undefined)?.message);
  const read = shortUrl(key);
  if (/call stack|recursion/i.test(message)) {
    return new RangeError(
      `${read}: ${DEV() ? 'its entities nest too deeply to read' : 'nested too deeply'} (${message}).`,
      { cause: error },
    );
  }
  if (!isRuntimeError(error)) return error;
  return new (error instanceof RangeError ? RangeError : TypeError)(
    `${read}: its data could not be read: ${message}`,
    { cause: error },
  );
}

/**
 * The entity and pk a read of a single entity asks for: the schema's entity (a Union's member is
 * chosen by the params, e.g. `{ id, type }`), pk computed from the URL params with its own `pk()`;
 * undefined when the schema is not one entity or the params do not give one.
 * @example storedEntityOf(Todo, [{ id: 5 }]) // { entity: Todo, pk: '5' }
 */
export function storedEntityOf(
  schema: unknown,
  args: readonly unknown[],
): { entity: EntityClass; pk: string } | undefined {
  const params = args[0];
  if (!isObject(params)) return undefined;
  let entity: EntityClass | undefined;
  let pk: unknown;
  // pk() and a Union's type function are written for entity data, and may throw on URL params:
  // then the params name no stored entity (reads, and the gc that runs in a timer, go on).
  try {
    entity = isEntityClass(schema)
      ? schema
      : (schema as { entityFor?: (params: object) => EntityClass | undefined } | null)?.entityFor?.(
          params,
        );
    pk = entity?.pk(params as object);
  } catch {
    return undefined;
  }
  return pk === undefined || pk === null || pk === ''
    ? undefined
    : { entity: entity!, pk: String(pk) };
}

/** True when the two reads would show the same thing (every field of a read is compared). */
export function sameResponse(a: ResponseInfo, b: ResponseInfo): boolean {
  for (const field in a) {
    if (a[field as keyof ResponseInfo] !== b[field as keyof ResponseInfo]) return false;
  }
  return true;
}
