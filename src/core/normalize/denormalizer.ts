import { INVALID } from '../schema/types.js';
import type { Args, EntityClass, EntityTable, StoredEntity } from '../schema/types.js';
import { isEntityClass, isSchemaInstance } from '../schema/is.js';
import { Collection } from '../schema/collection.js';
import { denormalizeArray } from '../schema/array.js';
import { denormalizeObject } from '../schema/object.js';
import { assignOwn, getOwn, setOwn } from '../util/own.js';

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

/** Cache of denormalized entities and lists, keyed by the stored object they were built from. */
export type StoredMemo = WeakMap<object, MemoEntry>;

const defaultsByClass = new WeakMap<object, Record<string, unknown>>();

/** The defaults of an entity class (an instance made with no props). */
function defaultsOf(entity: EntityClass): Record<string, unknown> {
  let defaults = defaultsByClass.get(entity);
  if (!defaults) {
    defaults = new (entity as unknown as new () => Record<string, unknown>)();
    defaultsByClass.set(entity, defaults);
  }
  return defaults;
}

/** True when every dependency still points at the same stored object. */
export function depsValid(deps: Dependencies, entities: EntityTable): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    if (getOwn(getOwn(entities, deps[i] as string), deps[i + 1] as string) !== deps[i + 2])
      return false;
  }
  return true;
}

/**
 * One denormalization pass over a fixed set of tables. With a memo, entities and lists whose
 * stored objects (and everything they reach) are unchanged come back as the same objects.
 */
export class Denormalizer {
  /** Entities being built right now, so a cycle gets the instance under construction. */
  private building = new Map<string, object>();
  /** Dependency frames of the values being built, innermost last. */
  private frames: Dependencies[] = [];

  constructor(
    readonly entities: EntityTable,
    private readonly memo?: StoredMemo,
  ) {}

  /** Denormalizes a whole read, recording its dependencies. */
  run(schema: unknown, input: unknown): MemoEntry {
    this.frames.push([]);
    const value = this.unvisit(schema, input);
    const deps = this.frames.pop()!;
    const topMissing =
      value === undefined &&
      (isEntityClass(schema) || (schema instanceof Collection && schema.readsList));
    return { value: topMissing ? INVALID : value, deps };
  }

  readonly unvisit = (schema: unknown, input: unknown): unknown => {
    if (schema === undefined || schema === null || input === undefined || input === null)
      return input;
    if (isEntityClass(schema))
      return this.stored(schema.key, input, (stored, id) => this.entity(schema, stored, id));
    if (schema instanceof Collection && schema.readsList) {
      return this.stored(schema.key, input, (stored) =>
        denormalizeArray(schema.schema[0], stored, this.unvisit),
      );
    }
    if (isSchemaInstance(schema)) return schema.denormalize(input, [] as Args, this.unvisit);
    if (Array.isArray(schema)) return denormalizeArray(schema[0], input, this.unvisit);
    if (typeof schema === 'object')
      return denormalizeObject(schema as Record<string, unknown>, input, this.unvisit);
    return input;
  };

  private addDeps(deps: Dependencies): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame) for (let i = 0; i < deps.length; i++) frame.push(deps[i]);
  }

  /** Looks up a stored value by key and pk, through the memo when there is one. */
  private stored(
    key: string,
    input: unknown,
    build: (stored: Record<string, unknown>, id: string) => unknown,
  ): unknown {
    if (typeof input === 'object') return input; // not normalized (e.g. an optimistic value): as is
    const pk = String(input);
    const stored: StoredEntity | undefined = getOwn(getOwn(this.entities, key), pk);
    if (stored === undefined || stored === INVALID) {
      this.addDeps([key, pk, stored]);
      return stored;
    }
    const id = `${key}\u0000${pk}`;
    const inProgress = this.building.get(id);
    if (inProgress) {
      this.addDeps([key, pk, stored]);
      return inProgress;
    }
    if (this.memo) {
      const hit = this.memo.get(stored);
      if (hit && depsValid(hit.deps, this.entities)) {
        this.addDeps(hit.deps);
        return hit.value;
      }
    }
    this.frames.push([key, pk, stored]);
    let value: unknown;
    try {
      value = build(stored, id);
    } finally {
      const deps = this.frames.pop()!;
      this.memo?.set(stored, { value, deps });
      this.addDeps(deps);
    }
    return value;
  }

  private entity(entity: EntityClass, stored: Record<string, unknown>, id: string): unknown {
    const instance = assignOwn(
      new (entity as unknown as new () => Record<string, unknown>)(),
      stored,
    );
    this.building.set(id, instance);
    try {
      const nested = entity.schema;
      for (const field of Object.keys(nested)) {
        const value = getOwn(stored, field);
        if (value === undefined || value === null) continue;
        const denormalized = this.unvisit(nested[field], value);
        if (
          denormalized === INVALID ||
          (denormalized === undefined && isEntityClass(nested[field]))
        ) {
          const fallback = getOwn(defaultsOf(entity), field);
          // A field whose default is null/undefined is optional: it simply goes away.
          if (fallback === null || fallback === undefined) setOwn(instance, field, undefined);
          else if (denormalized === INVALID) return INVALID;
          else setOwn(instance, field, fallback);
        } else {
          setOwn(instance, field, denormalized);
        }
      }
      return instance;
    } finally {
      this.building.delete(id);
    }
  }
}

/**
 * Turns a normalized value back into Entity instances (no cache: see MemoCache for that).
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
