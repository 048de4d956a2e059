import { INVALID } from '../schema/types.js';
import type {
  Args,
  EntityClass,
  EntityMeta,
  EntityMetaTable,
  EntityTable,
  NormalizeDelegate,
  NormalizeResult,
  NormalizedStore,
  StoredEntity,
} from '../schema/types.js';
import { isEntityClass, isSchemaInstance } from '../schema/is.js';
import { normalizeArray } from '../schema/array.js';
import { normalizeObject } from '../schema/object.js';
import { jsonEqual } from './equal.js';
import { assignOwn, getOwn, setOwn } from '../util/own.js';
import { describeValue, kindOf } from '../util/describe.js';

const EMPTY_STORE: NormalizedStore = { entities: {}, entitiesMeta: {} };

/** An error in a response's shape, with where in the response it was found. */
export class NormalizeError extends TypeError {
  constructor(
    message: string,
    /** Where in the response: `results[3].author`. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'NormalizeError';
  }
}

/** Copy-on-write view of the entity tables: a table is copied the first time it is written. */
class TableWriter implements NormalizeDelegate {
  entities: EntityTable;
  entitiesMeta: EntityMetaTable;
  private copied = new Set<string>();
  private copiedMeta = new Set<string>();
  /** Entities written by this payload: the same pk twice in one payload always merges. */
  private written = new Set<string>();

  constructor(
    private readonly store: NormalizedStore,
    private readonly meta: EntityMeta,
  ) {
    this.entities = store.entities;
    this.entitiesMeta = store.entitiesMeta;
  }

  getEntity(key: string, pk: string): StoredEntity | undefined {
    return getOwn(getOwn(this.entities, key), pk);
  }

  getEntities(key: string): Readonly<Record<string, StoredEntity>> | undefined {
    return getOwn(this.entities, key);
  }

  private table(key: string): Record<string, StoredEntity> {
    if (!this.copied.has(key)) {
      if (this.entities === this.store.entities) this.entities = assignOwn({}, this.entities);
      setOwn(this.entities, key, assignOwn({}, getOwn(this.store.entities, key) ?? {}));
      this.copied.add(key);
    }
    return this.entities[key]!;
  }

  private metaTable(key: string): Record<string, EntityMeta> {
    if (!this.copiedMeta.has(key)) {
      if (this.entitiesMeta === this.store.entitiesMeta)
        this.entitiesMeta = assignOwn({}, this.entitiesMeta);
      setOwn(this.entitiesMeta, key, assignOwn({}, getOwn(this.store.entitiesMeta, key) ?? {}));
      this.copiedMeta.add(key);
    }
    return this.entitiesMeta[key]!;
  }

  private write(key: string, pk: string, value: StoredEntity, meta: EntityMeta): void {
    if (this.getEntity(key, pk) !== value) setOwn(this.table(key), pk, value);
    const stored = getOwn(getOwn(this.entitiesMeta, key), pk);
    if (!stored || stored.fetchedAt !== meta.fetchedAt || stored.expiresAt !== meta.expiresAt) {
      setOwn(this.metaTable(key), pk, meta);
    }
  }

  mergeEntity(
    entity: EntityClass | undefined,
    key: string,
    pk: string,
    incoming: Record<string, unknown>,
  ): void {
    const id = `${key}\u0000${pk}`;
    const existing = this.getEntity(key, pk);
    const existingMeta = getOwn(getOwn(this.entitiesMeta, key), pk);
    let next: StoredEntity = incoming;
    let meta = this.meta;
    if (this.written.has(id) && existing !== undefined && existing !== INVALID) {
      next = entity
        ? entity.merge(existing, incoming)
        : assignOwn(assignOwn({}, existing), incoming);
    } else if (existingMeta && existingMeta.fetchedAt > this.meta.fetchedAt) {
      // Older than what the store holds: the stored values win, and an INVALID mark stays.
      if (existing === INVALID || existing === undefined) return;
      next = entity
        ? entity.merge(incoming, existing)
        : assignOwn(assignOwn({}, incoming), existing);
      meta = existingMeta;
    } else if (existing !== undefined && existing !== INVALID) {
      next = entity
        ? entity.merge(existing, incoming)
        : assignOwn(assignOwn({}, existing), incoming);
    }
    this.written.add(id);
    // Unchanged data keeps the stored object, so nothing that shows it renders again.
    if (existing !== undefined && existing !== INVALID && jsonEqual(existing, next))
      next = existing;
    this.write(key, pk, next, meta);
  }

  setEntity(key: string, pk: string, value: Record<string, unknown> | typeof INVALID): void {
    const existing = this.getEntity(key, pk);
    const next =
      existing !== undefined &&
      existing !== INVALID &&
      value !== INVALID &&
      jsonEqual(existing, value)
        ? existing
        : value;
    this.written.add(`${key}\u0000${pk}`);
    this.write(key, pk, next, this.meta);
  }

  invalidate(key: string, pk: string): void {
    const existingMeta = getOwn(getOwn(this.entitiesMeta, key), pk);
    if (existingMeta && existingMeta.fetchedAt > this.meta.fetchedAt) return;
    this.write(key, pk, INVALID, this.meta);
  }
}

function pathText(path: readonly string[]): string {
  let out = '';
  for (const part of path) out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  return out === '' ? 'the response' : `response.${out}`.replace('response.[', 'response[');
}

/**
 * Turns a response into the store's normalized form: each entity stored once under its key and
 * pk, the result holding pks in their place. Returns the whole new tables; tables and entities
 * it did not change keep their identity. An entity older (by `meta.fetchedAt`) than the stored
 * one never overwrites it.
 *
 * @example
 * const { result, entities } = normalize([Todo], [{ id: '1', title: 'a' }]);
 * // result: ['1'], entities: { Todo: { '1': { id: '1', title: 'a' } } }
 */
export function normalize<R = unknown>(
  schema: unknown,
  input: unknown,
  args: Args = [],
  store: NormalizedStore = EMPTY_STORE,
  meta?: Partial<EntityMeta>,
): NormalizeResult<R> {
  const now = Date.now();
  const fullMeta: EntityMeta = {
    fetchedAt: meta?.fetchedAt ?? now,
    date: meta?.date ?? now,
    expiresAt: meta?.expiresAt ?? Infinity,
  };
  const writer = new TableWriter(store, fullMeta);
  const path: string[] = [];
  // Input objects being normalized, so a cyclic graph stops at an entity it has already seen.
  const seen = new Map<object, string>();

  const fail = (message: string): never => {
    throw new NormalizeError(`${message} at ${pathText(path)}`, pathText(path));
  };

  const visitEntity = (
    entity: EntityClass,
    value: unknown,
    parent: unknown,
    key: string | undefined,
    callArgs: Args,
  ): unknown => {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return fail(`Entity ${entity.key} expected an object, got ${kindOf(value)}`);
    }
    const previous = seen.get(value);
    if (previous !== undefined) return previous;
    const processed = entity.process(value as Record<string, unknown>, parent, key, callArgs);
    const problem = entity.validate(processed);
    if (problem) fail(`Entity ${entity.key} is invalid: ${problem}`);
    const id = entity.pk(processed, parent, key, callArgs);
    if (
      id === undefined ||
      id === null ||
      id === '' ||
      (typeof id === 'number' && Number.isNaN(id))
    ) {
      fail(
        `Entity ${entity.key} has no pk(): got ${describeValue(id)} from ${describeValue(value)}. Define pk() or give the field it reads`,
      );
    }
    const pk = String(id);
    seen.set(value, pk);
    const nested = entity.schema;
    for (const field of Object.keys(nested)) {
      const member = getOwn(processed, field);
      if (member === undefined || member === null) continue;
      setOwn(processed, field, visit(nested[field], member, processed, field, callArgs));
    }
    writer.mergeEntity(entity, entity.key, pk, processed);
    return pk;
  };

  const visit = (
    schema: unknown,
    value: unknown,
    parent: unknown,
    key: string | undefined,
    callArgs: Args,
  ): unknown => {
    if (schema === undefined || schema === null) return value;
    if (key !== undefined) path.push(key);
    try {
      if (isEntityClass(schema)) return visitEntity(schema, value, parent, key, callArgs);
      if (value === undefined || value === null) return value;
      if (isSchemaInstance(schema))
        return schema.normalize(value, parent, key, callArgs, visit, writer);
      if (Array.isArray(schema))
        return normalizeArray(schema[0], value, parent, key, callArgs, visit);
      if (typeof schema === 'object')
        return normalizeObject(
          schema as Record<string, unknown>,
          value,
          parent,
          key,
          callArgs,
          visit,
        );
      return value;
    } catch (error) {
      if (error instanceof NormalizeError) throw error;
      if (error instanceof TypeError) fail((error as Error).message);
      throw error;
    } finally {
      if (key !== undefined) path.pop();
    }
  };

  if ((input === null || input === undefined) && schema !== undefined && schema !== null) {
    const expected = isEntityClass(schema)
      ? `a ${schema.key} object`
      : Array.isArray(schema)
        ? 'an array'
        : 'a value';
    fail(`Expected ${expected}, got ${kindOf(input)}`);
  }
  const result = visit(schema, input, undefined, undefined, args) as R;
  return { result, entities: writer.entities, entitiesMeta: writer.entitiesMeta };
}
