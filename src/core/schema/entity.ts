import { PLACEHOLDER_PK } from './types.js';
import type { Args, NormalizeDelegate, ReadStored, Schema, Visit, WalkStored } from './types.js';
import { assignOwn, defineOwn, entry, getOwn, hasOwn, schemaKeys } from '../util/own.js';
import { describeValue, kindOf } from '../util/describe.js';
import { isRecord } from './is.js';
import { ObjectSchema } from './object.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

const warnedKeys = new WeakSet<object>();

/** ", fields a, b" from a default instance, to tell which class lost its key once names are minified. */
function fieldsOf(entity: abstract new () => Entity): string {
  try {
    const fields = Object.keys(new (entity as unknown as new () => Entity)());
    return fields.length ? `, fields ${fields.join(', ')}` : '';
  } catch {
    return '';
  }
}

/**
 * What is wrong with a computed pk, or undefined when it can stand for one record: a string or a
 * finite number, not empty and not "undefined" (what `${this.id}` gives for an input without id).
 */
export function pkProblem(id: unknown): string | undefined {
  if (id === undefined || id === null || id === '' || id === 'undefined') return 'no pk()';
  if (typeof id === 'number') return Number.isFinite(id) ? undefined : 'no pk()';
  if (typeof id !== 'string') {
    return `a pk() that is ${kindOf(id)}${DEV() ? ', not a string or number' : ''}`;
  }
  return undefined;
}

/** How errors name an entity class: built only when something is wrong, not once per entity. */
const named = (entity: typeof Entity): string => `Entity ${entity.key}`;

/** `input` as `entity` stores it, and its pk: or a NormalizeError saying what is wrong. */
function checked(
  entity: typeof Entity,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  args: Args,
  { fail, failed }: NormalizeDelegate,
): { processed: Record<string, unknown>; pk: string } {
  if (!isRecord(input)) {
    fail(`${named(entity)} expected an object, got ${kindOf(input)}`);
  }
  let processed: Record<string, unknown>;
  let invalid: string | undefined;
  let id: unknown;
  try {
    processed = entity.process(input as Record<string, unknown>, parent, key, args);
    invalid = entity.validate(processed);
    id = entity.pk(processed, parent, key, args);
  } catch (error) {
    return failed(error, named(entity));
  }
  if (invalid) fail(`${named(entity)} is invalid: ${invalid}`);
  let problem = pkProblem(id);
  if (problem && hasOwn(input as object, PLACEHOLDER_PK)) {
    // An optimistic create: stored under a placeholder until the server's answer replaces it.
    id = (input as Record<PropertyKey, unknown>)[PLACEHOLDER_PK];
    problem = pkProblem(id);
  }
  if (problem) {
    fail(
      `${named(entity)} has ${problem}: got ${describeValue(id)} from ${describeValue(input)}${DEV() ? '. Define pk() or give the field it reads' : ''}`,
    );
  }
  return { processed, pk: String(id) };
}

/** Marks the Entity class side, so telling an entity schema apart is one property read. */
export const ENTITY_CLASS: unique symbol = Symbol.for('resource-elements.Entity');

/**
 * Base class of every record type. Declare fields with their defaults as class fields, say how to
 * compute the primary key in `pk()`, and name nested schemas in `static schema`.
 *
 * A nested entity field whose default is `null` or `undefined` is optional (it disappears when
 * the entity it points to is INVALID); any other default makes it required: the whole read
 * becomes INVALID, goes back to pending and is fetched again, and a read still INVALID right
 * after its own answer is an error naming the field (`Menu.food`), never another request.
 *
 * @example
 * class Todo extends Entity {
 *   id = '';
 *   title = '';
 *   completed = false;
 *   author: User | null = null;
 *   pk() { return this.id; }
 *   static key = 'Todo';
 *   static schema = { author: User };
 * }
 */
export abstract class Entity {
  /** The primary key of this entity; computed with `this` bound to the (processed) input. */
  abstract pk(parent?: unknown, key?: string, args?: Args): string | number | undefined;

  declare static readonly [ENTITY_CLASS]: true;

  /** Schemas of nested members: other entities, `[Entity]`, collections, unions… */
  static schema: { readonly [field: string]: Schema } = {};

  /**
   * The name of this entity type in the store: set it on every subclass (`static key = 'Todo'`).
   * Minifiers rename classes, so the class name is only a development fallback (with a warning);
   * in production, or for a class without a name, reading a missing key throws.
   */
  static get key(): string {
    const name = this.name;
    // Development only. Built, the flag's call is the inline test (scripts/dev-flag.mjs): once a
    // production bundler replaces `process.env.NODE_ENV`, it reads `… && false` right here, and
    // Vite, Rollup, esbuild and webpack all drop the block and its text
    // (scripts/test-consumer.mjs searches the bundles). `typeof` keeps the test from throwing
    // where `process` is undefined (unbundled in a browser), which counts as production.
    if (DEV() && name) {
      if (!warnedKeys.has(this)) {
        warnedKeys.add(this);
        console.warn(
          `Entity ${name} has no static key, so its class name is used; minifiers change class names. Add \`static key = '${name}'\`.`,
        );
      }
      return name;
    }
    throw new TypeError(
      `An Entity class (named ${JSON.stringify(name)} in this build${fieldsOf(this)}) has no static key${
        DEV()
          ? ". A class name is not a stable store key, minifiers change it: add `static key = 'Todo'`"
          : ''
      }.`,
    );
  }

  /** Sets the subclass's own key: `static key = 'Todo'` (the getter above explains it). */
  // With `useDefineForClassFields: false`, `static key = 'Todo'` is an assignment, which would
  // hit the inherited getter; this setter turns it into an own property of the subclass.
  static set key(value: string) {
    defineOwn(this, 'key', value);
  }

  /**
   * An instance with the class's defaults, overwritten by `props`.
   * @example const draft = Todo.fromJS({ title: 'Buy milk' });
   */
  static fromJS<T extends Entity>(this: abstract new () => T, props: Partial<T> | object = {}): T {
    return assignOwn(new (this as unknown as new () => T)(), props);
  }

  /**
   * The primary key for plain `props` (as received from the server or given as URL params).
   * @example Todo.pk({ id: 5 }) // 5
   */
  static pk(
    props: object,
    parent?: unknown,
    key?: string,
    args?: Args,
  ): string | number | undefined {
    const pk = (this.prototype as Partial<Entity>).pk;
    // TypeScript sees to it; plain JavaScript may forget it, and `undefined.call` names nothing.
    if (typeof pk !== 'function') {
      throw new TypeError(
        `Entity ${this.key} has no pk() method${DEV() ? ': add pk() { return this.id; }' : ''}`,
      );
    }
    return pk.call(props as Entity, parent, key, args);
  }

  /**
   * Turns the raw input into what is stored (a copy: never mutate the input).
   * @example static process(input) { return { ...input, title: input.title.trim() }; }
   */
  static process(
    input: Record<string, unknown>,
    _parent?: unknown,
    _key?: string,
    _args?: Args,
  ): Record<string, unknown> {
    // Spread defines own properties, so a `__proto__` key stays data.
    return { ...input };
  }

  /**
   * Combines a stored entity with newer data for the same pk. Called with (older, newer).
   * @example static merge(existing, incoming) { return { ...existing, ...incoming, tags: [...existing.tags, ...incoming.tags] }; }
   */
  static merge(
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): Record<string, unknown> {
    return { ...existing, ...incoming };
  }

  /**
   * Checks processed input before it is stored; return a message to reject it.
   * @example static validate(props) { if (typeof props.title !== 'string') return 'title must be a string'; }
   */
  static validate(_props: Record<string, unknown>): string | undefined {
    return undefined;
  }

  /**
   * The normalize step of every entity class: checks and stores `input` under its pk (merged
   * with what the store holds, by `merge`), its nested entities first, and gives the pk in its
   * place. A pk given in place of the entity is kept as it is.
   */
  static normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown {
    if (typeof input === 'string' || typeof input === 'number') return input;
    // The checks are a function of their own: deep graphs recurse through this one, and its
    // frame is what 1,000 nested entities must fit in.
    const { processed, pk } = checked(this, input, parent, key, args, delegate);
    const nested = this.schema;
    const fields = schemaKeys(nested);
    // Only an entity with nested schemas can lead back or fan out; a leaf costs one visit.
    if (fields.length > 0) {
      // Inline, not a call: it runs once per entity with nested ones.
      const byInput = entry(delegate.visited, this.key, Map);
      if (byInput.get(input as object) === pk) return pk;
      byInput.set(input as object, pk);
    }
    for (let i = 0; i < fields.length; i++) {
      const member = getOwn(processed, fields[i]!);
      if (member !== undefined && member !== null) {
        processed[fields[i]!] = visit(nested[fields[i]!], member, processed, fields[i], args);
      }
    }
    // The base merge is the plain one, which the store may skip when it would change nothing.
    delegate.mergeEntity(this.merge === Entity.merge ? undefined : this, this.key, pk, processed);
    return pk;
  }

  /** The walk step: hands each nested field of the stored entity `value` names on to `walk`. */
  static walk(value: unknown, walk: WalkStored, read: ReadStored): void {
    // The stored entity's fields are walked as an object schema's members are.
    if (typeof value !== 'object') {
      ObjectSchema.prototype.walk.call(this, read(this.key, String(value)), walk);
    }
  }
}

// Marks the Entity class side, so telling an entity schema apart is one property read.
(Entity as { [ENTITY_CLASS]: true })[ENTITY_CLASS] = true;
