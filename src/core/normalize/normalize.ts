import { INVALID, MAX_DEPTH } from '../schema/types.js';
import type {
  Args,
  EntityClass,
  EntityMeta,
  NormalizeDelegate,
  NormalizeResult,
  NormalizedStore,
  StoredEntity,
} from '../schema/types.js';
import { isEntityClass, isObject } from '../schema/is.js';
import { stepsOf } from '../schema/steps.js';
import { jsonEqual } from './equal.js';
import { getOwn, hasOwn } from '../util/own.js';
import { Writer } from './writer.js';
import type { WriteLog } from '../util/write-log.js';
import { isRuntimeError, kindOf } from '../util/describe.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

const CYCLE_CHECK_DEPTH = 32;

/** An error in a response's shape, with where in the response it was found. */
export class NormalizeError extends TypeError {
  constructor(
    message: string,
    /** Where in the response: `response.results[3].author`. */
    readonly path: string,
    /** What a schema's own code threw there (a `process()` that met a date it cannot parse). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'NormalizeError';
  }
}

/** Options of normalize. */
export interface NormalizeOptions {
  /**
   * Tables the caller holds exclusively (no snapshot of them is kept anywhere): they are updated
   * in place instead of being copied, which keeps the cost of one update independent of the
   * store's size; a payload that fails puts back what it wrote there. New tables made by copying
   * are added to the set.
   */
  owned?: WeakSet<object>;
  /** Told every pk written, by the table it is in (entries for a table replaced are stale). */
  log?: WriteLog;
}

/** True when every member of `incoming` is already in `existing`, with the same value. */
/** True when `incoming` lacks a field `existing` has: a write of some fields only. */
function lacks(incoming: Record<string, unknown>, existing: Record<string, unknown>): boolean {
  for (const field in existing) if (!hasOwn(incoming, field)) return true;
  return false;
}

function covers(existing: Record<string, unknown>, incoming: Record<string, unknown>): boolean {
  for (const key in incoming) {
    if (!hasOwn(existing, key) || existing[key] !== incoming[key]) return false;
  }
  return true;
}

/**
 * The entity tables as one payload writes them, through the one writer: what a key's tables hold
 * now, and the merge rules of an entity written twice or over a newer one.
 */
function tableWriter(
  store: NormalizedStore,
  meta: EntityMeta,
  writer: Writer,
  walk: Pick<NormalizeDelegate, 'fail' | 'failed'>,
) {
  const tables = { entities: store.entities, entitiesMeta: store.entitiesMeta };
  /** A key's entity table and meta table, and whether each is a copy this payload made. */
  type Slot = [Record<string, StoredEntity>?, Record<string, EntityMeta>?, boolean?, boolean?];
  /** Each key's slot, found once per key (reads and writes come in runs of one key). */
  const slots = new Map<string, Slot>();
  const slot = (key: string): Slot =>
    slots.get(key) ??
    slots.set(key, [getOwn(tables.entities, key), getOwn(tables.entitiesMeta, key)]).get(key)!;
  const set = (found: Slot, family: 0 | 1, key: string, pk: string, value: unknown) => {
    const table = (found[family] ?? {}) as Record<string, unknown>;
    if (found[family + 2]) return writer.put(table, pk, value);
    const next = writer.set(table, pk, value);
    if (next !== table) {
      found[family] = next as never;
      found[family + 2] = true;
      const name = family ? 'entitiesMeta' : 'entities';
      tables[name] = writer.set(tables[name] as Record<string, unknown>, key, next) as never;
    }
  };
  /** Writes `value` and its meta `at` over what the store holds (whose meta is `previous`). */
  const write = (found: Slot, key: string, pk: string, value: StoredEntity, at: EntityMeta) => {
    const previous = getOwn(found[1], pk);
    set(found, 0, key, pk, value);
    if (
      previous === undefined ||
      (previous !== at &&
        (previous.fetchedAt !== at.fetchedAt ||
          previous.expiresAt !== at.expiresAt ||
          previous.restAt !== at.restAt))
    ) {
      set(found, 1, key, pk, at);
    }
  };
  /** Newer in the store than this payload (or `at`): it must not be overwritten. */
  const newer = (found: Slot, pk: string, at = meta) =>
    (getOwn(found[1], pk)?.fetchedAt ?? -Infinity) > at.fetchedAt;
  /** `a` merged with `b` over it: by the entity's own `merge`, or plainly. */
  const merged = (
    entity: EntityClass | undefined,
    a: Record<string, unknown>,
    b: Record<string, unknown>,
  ) => (entity ? entity.merge(a, b) : { ...a, ...b });
  /** Unchanged data keeps the stored object, so nothing that shows it renders again. */
  const same = (existing: StoredEntity | undefined, next: StoredEntity) =>
    existing !== undefined && existing !== INVALID && next !== INVALID && jsonEqual(existing, next)
      ? existing
      : next;
  const delegate: NormalizeDelegate & { tables: NormalizedStore } = {
    // Named one by one: an object spread into a literal leaves it in slow (dictionary) mode,
    // and steps call this delegate once per entity.
    fail: walk.fail,
    failed: walk.failed,
    visited: new Map(),
    tables,
    getEntity: (key, pk) => getOwn(slot(key)[0], pk),
    getEntities: (key) => slot(key)[0],
    // `entity` undefined: the plain merge, skipped when it would change nothing (`covers`).
    mergeEntity(entity, key, pk, incoming) {
      const found = slot(key);
      const existing = getOwn(found[0], pk);
      const existingMeta = getOwn(found[1], pk);
      let next: StoredEntity = incoming;
      let at = meta;
      if (existing === undefined) {
        // first seen: stored as it came
      } else if (existingMeta !== undefined && existingMeta.fetchedAt > meta.fetchedAt) {
        // Older than what the store holds: the stored values win, and an INVALID mark stays.
        if (existing === INVALID) return;
        const { fields, restAt } = existingMeta;
        if (fields && restAt! < meta.fetchedAt) {
          // Newer than what the partial writes did not carry: those fields take its values.
          const rest = { ...incoming };
          for (const field of fields) delete rest[field];
          next = merged(entity, existing, rest);
          at = { ...existingMeta, restAt: meta.fetchedAt };
        } else {
          next = merged(entity, incoming, existing);
          at = existingMeta;
        }
      } else if (existing !== INVALID) {
        // Also the same pk earlier in this payload (its writes carry this payload's meta).
        if (!entity && covers(existing, incoming)) {
          if (existingMeta === meta) return;
          next = existing;
        } else {
          next = merged(entity, existing, incoming);
        }
        if (existingMeta !== undefined && existingMeta !== meta && lacks(incoming, existing)) {
          // A partial write (a push of some fields) overrules only the fields it carries.
          const carried = new Set(existingMeta.fields);
          for (const field in incoming) carried.add(field);
          at = {
            ...meta,
            fields: [...carried],
            restAt: existingMeta.fields ? existingMeta.restAt : existingMeta.fetchedAt,
          };
        }
      }
      if (next !== existing) next = same(existing, next);
      write(found, key, pk, next, at);
    },
    setEntity(key, pk, value, ifNewer) {
      const found = slot(key);
      if (!(ifNewer && newer(found, pk)))
        write(found, key, pk, same(getOwn(found[0], pk), value), meta);
    },
    invalidate(key, pk) {
      const found = slot(key);
      // Dated when its answer was written: a read sent before that (which the server may have
      // answered first) cannot bring a deleted entity back.
      const at = meta.date > meta.fetchedAt ? { ...meta, fetchedAt: meta.date } : meta;
      if (!newer(found, pk, at)) write(found, key, pk, INVALID, at);
    },
  };
  return delegate;
}

function pathText(path: readonly (string | number)[]): string {
  let out = 'response';
  const long = path.length > 24;
  for (let i = 0; i < path.length; i++) {
    // A very deep path: its start and its end say where; the middle is counted.
    if (long && i === 12) {
      out += `…(${path.length - 24} more)…`;
      i = path.length - 12;
    }
    const part = path[i]!;
    out += /^\d+$/.test(part as string) ? `[${part}]` : `.${part}`;
  }
  return out === 'response' ? 'the response' : out;
}

/** A hint for a string where structured data was expected: JSON text that was never parsed. */
function jsonHint(value: unknown): string {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return '';
  try {
    JSON.parse(value);
  } catch {
    return '';
  }
  return ` that is JSON text${DEV() ? ': parse it first (the response was not read as JSON; check its Content-Type, or parseResponse/process)' : ''}`;
}

/**
 * Turns a response into the store's normalized form: each entity stored once under its key and
 * pk, the result holding pks in their place. Returns the whole new tables; tables and entities
 * it did not change keep their identity, and the store passed in is never changed. An entity
 * older (by `meta.fetchedAt`) than the stored one never overwrites it.
 *
 * @example
 * const { result, entities } = normalize([Todo], [{ id: '1', title: 'a' }]);
 * // result: ['1'], entities: { Todo: { '1': { id: '1', title: 'a' } } }
 */
export function normalize<R = unknown>(
  schema: unknown,
  input: unknown,
  args: Args = [],
  store: NormalizedStore = { entities: {}, entitiesMeta: {} },
  meta?: Partial<EntityMeta>,
  options: NormalizeOptions = {},
): NormalizeResult<R> {
  const now = Date.now();
  const fullMeta: EntityMeta = {
    fetchedAt: meta?.fetchedAt ?? now,
    date: meta?.date ?? meta?.fetchedAt ?? now,
    expiresAt: meta?.expiresAt ?? Infinity,
  };
  // A reduction that writes more than the entities hands in its own writer.
  const own = options instanceof Writer ? options : new Writer(options.owned, options.log);
  // Where the visit is. Not unwound when something throws, so at the throw it still says where.
  const path: (string | number)[] = [];
  // The values on the way to where the visit is, one per entry of `path`.
  const ancestors: unknown[] = [];
  const fail = (message: string, cause?: unknown): never => {
    const where = pathText(path);
    throw new NormalizeError(`${message} at ${where}`, where, cause);
  };
  /**
   * A failure of a schema's own code (process, validate, pk, merge, a type function), told with
   * where it happened. Error classes of the app's own pass through as they are: they are thrown on
   * purpose, to be caught by class.
   */
  const failed = (error: unknown, what = ''): never => {
    if (error instanceof NormalizeError || !isRuntimeError(error)) throw error;
    const message = (error as Error).message;
    return fail(
      // Too deep for the stack even below MAX_DEPTH (a small stack, a recursive process()):
      // V8 and JavaScriptCore throw a RangeError, SpiderMonkey an InternalError.
      /call stack|too much recursion/i.test(message)
        ? `${DEV() ? 'The response is ' : ''}nested too deeply (${message})`
        : message.startsWith(what)
          ? message
          : `${what}: ${message}`,
      error,
    );
  };

  /** Fails: `value` is not what `schema` expects (JSON text where structure belongs, say). */
  const expected = (schema: unknown, value: unknown) =>
    fail(`Expected ${expectedOf(schema)}, got ${kindOf(value)}${jsonHint(value)}`);

  const writer = tableWriter(store, fullMeta, own, { fail, failed });
  // How many entities deep the walk is.
  let depth = 0;

  const visit = (
    schema: unknown,
    value: unknown,
    parent: unknown,
    key: string | undefined,
    callArgs: Args,
    at: string | number | undefined = key,
  ): unknown => {
    if (schema === undefined || schema === null) return value;
    // A Union hands its value on to the member entity: the same place, not a step deeper (an
    // error there would name it twice, `response[1][1]`).
    const entity = isEntityClass(schema);
    const step = at !== undefined && !(value === ancestors.at(-1) && entity);
    if (step) {
      path.push(at!);
      if (path.length > 4 * MAX_DEPTH) {
        fail(`${DEV() ? 'The response is ' : ''}nested more than ${4 * MAX_DEPTH} levels deep`);
      }
      // Deeper than real payloads go, look for a value inside itself: entities stop at `visited`,
      // but plain objects and arrays would go round (and branch) until the depth limit.
      if (
        path.length > CYCLE_CHECK_DEPTH &&
        isObject(value) &&
        !entity &&
        ancestors.includes(value)
      ) {
        fail(DEV() ? 'The response refers back to itself (a cycle)' : 'a cycle');
      }
      ancestors.push(value);
    }
    // JSON text where structured data belongs: a member the server encoded twice. For an
    // entity only object text (array text may be a compound pk, JSON.stringify([org, id])).
    if (
      typeof value === 'string' &&
      (entity ? /^\s*\{/.test(value) : typeof schema === 'object') &&
      jsonHint(value) !== ''
    ) {
      expected(schema, value);
    }
    const steps = entity ? schema : stepsOf(schema);
    // Entities nested deeper than MAX_DEPTH are refused: counted here, in the walk's own frame.
    if (entity && depth++ > MAX_DEPTH) {
      fail(`Entity ${schema.key} is nested in more than ${MAX_DEPTH} entities`);
    }
    const out =
      steps === undefined || ((value === undefined || value === null) && !entity)
        ? value
        : steps.normalize(value, parent, key, callArgs, visit, writer);
    if (entity) depth--;
    if (step) {
      path.pop();
      ancestors.pop();
    }
    return out;
  };

  if (
    // Nested, a string or number is a pk; as the whole response it is not the entity asked for.
    (isEntityClass(schema) && (typeof input === 'string' || typeof input === 'number')) ||
    (isObject(schema) && jsonHint(input) !== '') ||
    ((input === null || input === undefined) && schema !== undefined && schema !== null)
  ) {
    expected(schema, input);
  }
  let result: R;
  try {
    // At the top the response is its own parent (a pk() may read it), and there is no key.
    result = visit(schema, input, input, undefined, args) as R;
  } catch (error) {
    // Nothing of a payload that fails stays in the store.
    own.undo();
    // Schemas throw TypeErrors that say what; the path, left where the visit stopped, says where.
    return failed(error);
  }
  return { result, ...writer.tables };
}

/** What a schema expects, for "Expected …" messages: names the entity or list when it has one. */
function expectedOf(schema: unknown): string {
  if (isEntityClass(schema)) return `a ${schema.key} object`;
  if (Array.isArray(schema)) return 'an array';
  const key = (schema as { key?: unknown }).key;
  return typeof key === 'string' ? `a value for ${key}` : 'a value';
}
