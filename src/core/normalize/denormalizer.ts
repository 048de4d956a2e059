import { INVALID } from '../schema/types.js';
import type { Args, EntityClass, EntityTable, StoredEntity } from '../schema/types.js';
import type { SchemaInstance } from '../schema/types.js';
import { isEntityClass, isSchemaInstance, schemaKeys } from '../schema/is.js';
import { denormalizeArray, shorthandMember } from '../schema/array.js';
import { denormalizeObject } from '../schema/object.js';
import { getOwn, hasOwn, setOwn } from '../util/own.js';

/**
 * What a denormalized value was built from: flat triples (key, pk, stored object). The value is
 * still right while every stored object is the same one.
 */
export type Dependencies = unknown[];

/** A cached value and what it was built from. */
export interface MemoEntry {
  value: unknown;
  deps: Dependencies;
}

/**
 * Cache of denormalized entities and lists: per entity class (or list schema), then by the stored
 * object they were built from. Two classes with one key (a summary and a detail class) each get
 * instances of their own.
 */
export type StoredMemo = WeakMap<object, WeakMap<object, MemoEntry>>;

/** A schema read from the store by key and pk: an entity class or a list (Collection). */
type StoredSchema = EntityClass | (SchemaInstance & { readonly key: string });

/** What one pass built from the stored objects of one schema. */
interface Done {
  values: Map<object, unknown>;
  deps: Map<object, Dependencies>;
}

/** How instances of one entity class are made without running its constructor each time. */
interface Blueprint {
  prototype: object;
  /** The class's field defaults (one instance made with no props). */
  defaults: Record<string, unknown>;
  /** The default fields, in order. */
  keys: readonly string[];
  /** Defaults that are arrays or plain objects: copied per instance, never shared. */
  mutable: ReadonlySet<string>;
  /** Nested fields whose default is null or undefined: optional. */
  optional: ReadonlySet<string>;
}

const blueprints = new WeakMap<object, Blueprint>();

function blueprintOf(entity: EntityClass): Blueprint {
  let blueprint = blueprints.get(entity);
  if (blueprint === undefined) {
    const defaults = { ...new (entity as unknown as new () => Record<string, unknown>)() };
    const keys = Object.keys(defaults).filter((key) => key !== '__proto__');
    const mutable = keys.filter((key) => {
      const value = defaults[key];
      return (
        Array.isArray(value) ||
        (value !== null &&
          typeof value === 'object' &&
          Object.getPrototypeOf(value) === Object.prototype)
      );
    });
    const optional = new Set(
      schemaKeys(entity.schema).filter(
        (field) => defaults[field] === null || defaults[field] === undefined,
      ),
    );
    blueprint = {
      prototype: entity.prototype as object,
      defaults,
      keys,
      mutable: new Set(mutable),
      optional,
    };
    blueprints.set(entity, blueprint);
  }
  return blueprint;
}

/**
 * A new instance: the prototype of the class, its defaults, then the stored values. The
 * constructor is not run per instance (field initializers such as `author = User.fromJS()` would
 * build throwaway objects); defaults that are arrays or plain objects are copied, not shared.
 */
function instantiate(
  blueprint: Blueprint,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const instance = Object.create(blueprint.prototype) as Record<string, unknown>;
  // A keyed copy: on prototype-linked objects V8 runs it several times faster than Object.assign.
  for (const key in stored) {
    if (key === '__proto__') setOwn(instance, key, stored[key]);
    else instance[key] = stored[key];
  }
  const keys = blueprint.keys;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (hasOwn(stored, key)) continue;
    const value = blueprint.defaults[key];
    instance[key] = blueprint.mutable.has(key)
      ? Array.isArray(value)
        ? value.slice()
        : { ...(value as object) }
      : value;
  }
  return instance;
}

/** True when every dependency still points at the same stored object. */
export function depsValid(deps: Dependencies, entities: EntityTable): boolean {
  let key: unknown;
  let table: Record<string, StoredEntity> | undefined;
  for (let i = 0; i < deps.length; i += 3) {
    // Dependencies come grouped by key, so the table lookup is mostly reused.
    if (deps[i] !== key) {
      key = deps[i];
      table = getOwn(entities, key as string);
    }
    const current = table === undefined ? undefined : getOwn(table, deps[i + 1] as string);
    if (current !== deps[i + 2]) return false;
  }
  return true;
}

/**
 * One denormalization pass over a fixed set of tables. Within a pass each stored entity is built
 * once; with a memo, entities and lists whose stored objects (and everything they reach) are
 * unchanged come back as the same objects across passes.
 */
export class Denormalizer {
  /**
   * Values of this pass by schema, then stored object. An entity is entered as soon as its
   * instance exists, so a cycle back to it gets the instance under construction. With a memo,
   * the dependencies of each finished value are kept beside it.
   */
  private readonly done = new Map<object, Done>();
  private lastSchema: object | undefined;
  private lastDone: Done | undefined;
  /** Dependency frames of the values being built, innermost last (only with a memo). */
  private readonly frames: Dependencies[] = [];

  constructor(
    readonly entities: EntityTable,
    private readonly memo?: StoredMemo,
  ) {}

  /** Denormalizes a whole read, recording its dependencies when there is a memo. */
  run(schema: unknown, input: unknown): MemoEntry {
    this.frames.push([]);
    const value = this.unvisit(schema, input);
    const deps = this.frames.pop()!;
    const topMissing = value === undefined && (isEntityClass(schema) || isStoredList(schema));
    return { value: topMissing ? INVALID : value, deps };
  }

  readonly unvisit = (schema: unknown, input: unknown): unknown => {
    if (schema === undefined || schema === null || input === undefined || input === null)
      return input;
    if (isEntityClass(schema)) return this.stored(schema, schema.key, input);
    if (isSchemaInstance(schema)) {
      if (schema.readsStore === true)
        return this.stored(schema as StoredSchema, schema.key!, input);
      return schema.denormalize(input, [] as Args, this.unvisit);
    }
    if (Array.isArray(schema))
      return denormalizeArray(shorthandMember(schema), input, this.unvisit);
    if (typeof schema === 'object') {
      return denormalizeObject(schema as Record<string, unknown>, input, this.unvisit);
    }
    return input;
  };

  private addDeps(deps: Dependencies): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame !== undefined) for (let i = 0; i < deps.length; i++) frame.push(deps[i]);
  }

  private doneFor(schema: object): Done {
    if (schema === this.lastSchema) return this.lastDone!;
    let done = this.done.get(schema);
    if (done === undefined) this.done.set(schema, (done = { values: new Map(), deps: new Map() }));
    this.lastSchema = schema;
    this.lastDone = done;
    return done;
  }

  /** Reads a stored entity or list by key and pk, built once per pass (and per memo). */
  private stored(schema: StoredSchema, key: string, input: unknown): unknown {
    if (typeof input === 'object') return this.inline(schema, input as object);
    const pk = typeof input === 'string' ? input : String(input);
    const table = getOwn(this.entities, key);
    let stored: StoredEntity | undefined = table === undefined ? undefined : getOwn(table, pk);
    const memo = this.memo;
    // Only objects are entities or lists: anything else in the table (null, a number: a damaged
    // or foreign state) reads as missing.
    if (stored !== INVALID && (stored === null || typeof stored !== 'object')) stored = undefined;
    if (stored === undefined || stored === INVALID) {
      if (memo !== undefined) this.addDeps([key, pk, stored]);
      return stored;
    }
    const identity = isEntityClass(schema) ? schema : (schema.storeIdentity ?? schema);
    const done = this.doneFor(identity);
    // Values are never undefined (an instance, a list, or INVALID), so one lookup says it all.
    const finished = done.values.get(stored);
    if (finished !== undefined) {
      if (memo !== undefined) this.addDeps(done.deps.get(stored) ?? [key, pk, stored]);
      return finished;
    }
    // (Built inline, not through a helper: deep graphs recurse here, so every frame counts.)
    if (memo === undefined) {
      const value = isEntityClass(schema)
        ? this.entity(schema, stored as Record<string, unknown>, done)
        : schema.denormalizeStored!(stored, this.unvisit);
      done.values.set(stored, value);
      return value;
    }
    let bySchema = memo.get(identity);
    if (bySchema === undefined) memo.set(identity, (bySchema = new WeakMap()));
    const hit = bySchema.get(stored);
    if (hit !== undefined && depsValid(hit.deps, this.entities)) {
      done.values.set(stored, hit.value);
      done.deps.set(stored, hit.deps);
      this.addDeps(hit.deps);
      return hit.value;
    }
    this.frames.push([key, pk, stored]);
    let value: unknown;
    try {
      value = isEntityClass(schema)
        ? this.entity(schema, stored as Record<string, unknown>, done)
        : schema.denormalizeStored!(stored, this.unvisit);
    } finally {
      const deps = this.frames.pop()!;
      done.values.set(stored, value);
      done.deps.set(stored, deps);
      bySchema.set(stored, { value, deps });
      this.addDeps(deps);
    }
    return value;
  }

  /**
   * A value given in place of a pk (not normalized: an optimistic value, data denormalized
   * before): an instance of the class as it is, a plain object made into one.
   */
  private inline(schema: StoredSchema, input: object): unknown {
    if (!isEntityClass(schema)) return schema.denormalizeStored!(input, this.unvisit);
    if (Object.getPrototypeOf(input) === schema.prototype) return input;
    const done = this.doneFor(schema);
    const finished = done.values.get(input);
    return finished !== undefined
      ? finished
      : this.entity(schema, input as Record<string, unknown>, done);
  }

  private entity(entity: EntityClass, stored: Record<string, unknown>, done: Done): unknown {
    // Stored data the class rejects must not be shown, as at normalize time.
    if (entity.validate(stored)) return INVALID;
    const blueprint = blueprintOf(entity);
    const instance = instantiate(blueprint, stored);
    done.values.set(stored, instance);
    const nested = entity.schema;
    const fields = schemaKeys(nested);
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!hasOwn(stored, field)) continue;
      const value = stored[field];
      if (value === undefined || value === null) continue;
      const fieldSchema = nested[field];
      const denormalized = this.unvisit(fieldSchema, value);
      if (denormalized === INVALID || (denormalized === undefined && isEntityClass(fieldSchema))) {
        // A field whose default is null/undefined is optional: it simply goes away. A required
        // one that is INVALID or missing makes this entity unshowable.
        if (blueprint.optional.has(field)) setOwn(instance, field, undefined);
        else return INVALID;
      } else {
        instance[field] = denormalized;
      }
    }
    return instance;
  }
}

/**
 * Turns a normalized value back into Entity instances (no cache across calls: see MemoCache).
 * Returns INVALID when the read must not be shown: a top-level entity is missing or INVALID, or
 * a required nested one is INVALID.
 * @example denormalize([Todo], ['1'], entities) // [Todo { id: '1', … }]
 */
export function denormalize(
  schema: unknown,
  input: unknown,
  entities: EntityTable,
  _args: Args = [],
): unknown {
  return new Denormalizer(entities).run(schema, input).value;
}

function isStoredList(schema: unknown): boolean {
  return isSchemaInstance(schema) && schema.readsStore === true;
}
