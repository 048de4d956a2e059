import { INVALID } from '../schema/types.js';
import type { Args, EntityClass, EntityTable, StoredEntity } from '../schema/types.js';
import type { SchemaInstance } from '../schema/types.js';
import {
  holdsEntity,
  isEntityClass,
  isObject,
  isSchemaInstance,
  schemaKeys,
} from '../schema/is.js';
import { stepsOf } from '../schema/steps.js';
import { assignOwn, computedBy, entry, getOwn, once, setOwn } from '../util/own.js';

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

/**
 * What one pass built for one schema, by pk (the tables do not change within a pass, so a pk
 * stands for its stored object), or by the object itself for a value given in place of a pk.
 */
interface Done {
  values: Map<unknown, unknown>;
  deps: Map<string, Dependencies>;
  /** For an entity class: its nested fields (read once per pass, not once per entity). */
  fields: readonly string[];
  /** For an entity class: the fields its class computes (getters only), left to the class. */
  computed: ReadonlySet<string>;
  /** The memo's values for this schema, by stored object (with a memo). */
  memo?: WeakMap<object, MemoEntry>;
}

/**
 * One identity per list schema and store key. A Collection's storeIdentity is its member schema,
 * which two Collections under different keys may share: their lists with one pk are different.
 */
const listIdentities = new WeakMap<object, Map<string, object>>();

function listIdentity(schema: object, key: string): object {
  return entry(entry(listIdentities, schema, Map), key, Object);
}

/** Nested fields whose default is null or undefined: optional (computed once per class). */
const optionalOf = once((entity: EntityClass): ReadonlySet<string> => {
  const defaults = new (entity as unknown as new () => Record<string, unknown>)();
  return new Set(schemaKeys(entity.schema).filter((field) => defaults[field] == null));
});

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
    const current = getOwn(table, deps[i + 1] as string);
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
  readonly #done = new Map<object, Done>();
  #lastSchema: object | undefined;
  #lastDone: Done | undefined;
  /** The table read last: reads come in runs of one key, so the lookup is mostly reused. */
  #tableKey: string | undefined;
  #table: Record<string, StoredEntity> | undefined;
  /** The dependencies of the value being built (only with a memo); its parent waits on the stack. */
  #frame: Dependencies | undefined;

  readonly #memo: StoredMemo | undefined;
  /** The first required field found INVALID (`Menu.food`): why a read is INVALID. */
  lacks: string | undefined;
  /**
   * True once the pass may have recorded a dependency twice (an entity read again, or a cached
   * value with nested entities): only then do its dependencies need compacting. A flat list
   * records each member once, and skips that work.
   */
  repeated = false;

  constructor(
    readonly entities: EntityTable,
    memo?: StoredMemo,
  ) {
    this.#memo = memo;
  }

  /** Denormalizes a whole read, recording its dependencies when there is a memo. */
  run(schema: unknown, input: unknown): MemoEntry {
    // The top frame: each value built below hands its dependencies back up to it.
    this.#frame = [];
    const value = this.unvisit(schema, input);
    const deps = this.#frame;
    // A Union with nothing stored for it reads as undefined (as in the reference); one whose
    // member is missing from the store is missing, as an Entity is.
    const topMissing =
      value === undefined &&
      (isEntityClass(schema) ||
        (isSchemaInstance(schema) && schema.readsStore === true) ||
        (input !== undefined && holdsEntity(schema)));
    return { value: topMissing ? INVALID : value, deps };
  }

  readonly unvisit = (schema: unknown, input: unknown): unknown => {
    const entity = isEntityClass(schema);
    const steps = entity ? schema : stepsOf(schema);
    if (steps === undefined || input == null) return input;
    // Entities and stored lists are read from the store, once per pass and through the memo.
    if (entity || (steps as SchemaInstance).readsStore === true) {
      return this.#stored(steps as StoredSchema, steps.key!, input);
    }
    return (steps as SchemaInstance).denormalize(input, [] as Args, this.unvisit);
  };

  #addDeps(deps: Dependencies): void {
    const frame = this.#frame!;
    // Only the top frame starts empty: it takes a copy of the first value's dependencies at once
    // (a read of one list of 10,000 members copies them in one go, not one push each).
    if (!frame.length) this.#frame = deps.slice();
    else for (let i = 0; i < deps.length; i++) frame.push(deps[i]);
  }

  #doneFor(schema: object): Done {
    if (schema === this.#lastSchema) return this.#lastDone!;
    let done = this.#done.get(schema);
    if (done === undefined) {
      const entity = isEntityClass(schema);
      const fields = entity ? schemaKeys(schema.schema) : [];
      const computed = computedBy(entity ? (schema.prototype as object) : null);
      const memo = this.#memo && entry(this.#memo, schema, WeakMap);
      this.#done.set(
        schema,
        (done = { values: new Map(), deps: new Map(), fields, computed, memo }),
      );
    }
    this.#lastSchema = schema;
    this.#lastDone = done;
    return done;
  }

  /** The stored object under key and pk, INVALID, or undefined (missing, or not an object). */
  #lookup(key: string, pk: string): StoredEntity | undefined {
    if (key !== this.#tableKey) {
      this.#tableKey = key;
      this.#table = getOwn(this.entities, key);
    }
    const stored = getOwn(this.#table, pk);
    // Only objects are entities or lists: anything else in the table (null, a number: a damaged
    // or foreign state) reads as missing.
    return stored === INVALID || isObject(stored) ? stored : undefined;
  }

  /** Reads a stored entity or list by key and pk, built once per pass (and per memo). */
  #stored(schema: StoredSchema, key: string, input: unknown): unknown {
    if (typeof input === 'object') return this.#inline(schema, input as object);
    const pk = String(input);
    const identity = isEntityClass(schema)
      ? schema
      : listIdentity(schema.storeIdentity ?? schema, key);
    const done = this.#doneFor(identity);
    const bySchema = done.memo;
    // Values are never undefined (an instance, a list, or INVALID), so one lookup says it all.
    const finished = done.values.get(pk);
    if (finished !== undefined) {
      this.repeated = true;
      // No dependencies yet: a cycle back to an entity still being built.
      if (bySchema) this.#addDeps(done.deps.get(pk) ?? [key, pk, this.#lookup(key, pk)]);
      return finished;
    }
    const stored = this.#lookup(key, pk);
    if (stored === undefined || stored === INVALID) {
      if (bySchema) this.#addDeps([key, pk, stored]);
      return stored;
    }
    const hit = bySchema?.get(stored);
    // A value built from this very object alone (an entity without nested ones, found under
    // this pk) is still right: no other dependency to check.
    if (
      hit !== undefined &&
      ((hit.deps.length === 3 && hit.deps[1] === pk) || depsValid(hit.deps, this.entities))
    ) {
      // A leaf read again in this pass finds it here again, as cheaply: only a value with
      // nested entities is kept for the pass (and its dependencies may then repeat).
      if (hit.deps.length > 3) {
        this.repeated = true;
        done.values.set(pk, hit.value);
        done.deps.set(pk, hit.deps);
        this.#addDeps(hit.deps);
      } else {
        this.#frame!.push(key, pk, stored);
      }
      return hit.value;
    }
    // Built inline, not through a helper: deep graphs recurse here, so every frame counts.
    // (entity() enters its own value in `done` as soon as the instance exists.)
    const parent = this.#frame;
    this.#frame = [key, pk, stored];
    let value: unknown;
    try {
      value = isEntityClass(schema)
        ? this.#entity(schema, stored as Record<string, unknown>, done, pk)
        : schema.denormalizeStored!(stored, this.unvisit);
    } finally {
      const deps = this.#frame!;
      this.#frame = parent;
      done.values.set(pk, value);
      if (bySchema) {
        done.deps.set(pk, deps);
        bySchema.set(stored, { value, deps });
        this.#addDeps(deps);
      }
    }
    return value;
  }

  /**
   * A value given in place of a pk (not normalized: an optimistic value, data denormalized
   * before): an instance of the class as it is, a plain object made into one.
   */
  #inline(schema: StoredSchema, input: object): unknown {
    if (!isEntityClass(schema)) return schema.denormalizeStored!(input, this.unvisit);
    if (Object.getPrototypeOf(input) === schema.prototype) return input;
    const done = this.#doneFor(schema);
    const finished = done.values.get(input);
    return finished !== undefined
      ? finished
      : this.#entity(schema, input as Record<string, unknown>, done, input);
  }

  /** Builds an entity from `stored`, entered in `done` under `slot` (its pk, or the object). */
  #entity(
    entity: EntityClass,
    stored: Record<string, unknown>,
    done: Done,
    slot: unknown,
  ): unknown {
    // Stored data the class rejects must not be shown, as at normalize time: INVALID for the rest
    // of this pass.
    if (entity.validate(stored)) {
      done.values.set(slot, INVALID);
      return INVALID;
    }
    // A new instance: the class's constructor (its field defaults, fresh per instance), then the
    // stored values. An instance built by its own constructor has the class's shape from the
    // start, which V8 reads and writes about twice as fast as an object given its fields one by one.
    const instance = assignOwn(
      new (entity as unknown as new () => Record<string, unknown>)(),
      stored,
      done.computed,
    );
    done.values.set(slot, instance);
    const nested = entity.schema;
    const fields = done.fields;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const value = getOwn(stored, field);
      if (value == null) continue;
      const denormalized = this.unvisit(nested[field], value);
      if (denormalized === INVALID) {
        // A field whose default is null/undefined is optional: it simply goes away. A required
        // one that is INVALID makes this entity unshowable. (Missing is not INVALID: an entity
        // the store does not hold reads as undefined below, and never sends a request.)
        if (!optionalOf(entity).has(field)) {
          this.lacks ??= `${entity.key}.${field}`;
          done.values.set(slot, INVALID);
          return INVALID;
        }
        setOwn(instance, field, undefined);
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
