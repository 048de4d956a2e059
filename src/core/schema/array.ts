import { INVALID } from './types.js';
import type {
  Args,
  Denormalize,
  NormalizeDelegate,
  Schema,
  SchemaInstance,
  Unvisit,
  Visit,
  WalkStored,
} from './types.js';
import { kindOf } from '../util/describe.js';
import { isRecord } from './is.js';

/**
 * A list of values of one schema: `new schema.Array(Todo)`, or the shorthand `[Todo]`.
 * INVALID entities are left out when it is read. `schema.Array` also leaves out null and
 * undefined members of a response (as the reference does); `[Todo]` keeps them.
 * @example static schema = { comments: new schema.Array(Comment) };
 */
export class ArraySchema<S extends Schema = Schema> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<S>[];
  constructor(readonly schema: S) {}

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate: NormalizeDelegate,
  ): unknown {
    // An object stands for the list of its values (a map keyed by id, say).
    const list = isRecord(input) ? Object.values(input) : input;
    return present(normalizeMembers(this.schema, list, parent, key, args, visit));
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    return denormalizeArray(this.schema, input, unvisit);
  }

  walk(value: unknown, walk: WalkStored): void {
    walkMembers(this.schema, value, walk);
  }
}

/**
 * The member schema of the shorthand `[S]`. `[]` has none: it is a default value, whose value
 * passes through as the response has it. More than one member is a mistake in the schema.
 */
export function shorthandMember(schema: readonly unknown[]): unknown {
  if (schema.length > 1) {
    throw new TypeError(
      `An array schema takes one member schema, got ${schema.length}${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ': for several types use new schema.Union(...)' : ''}`,
    );
  }
  return schema[0];
}

/**
 * Normalizes each member of an array (shared by `[S]`, `schema.Array` and collections); null and
 * undefined members are kept as they are. Members see the array's parent and key (a Union's
 * schemaAttribute, an Entity's process and pk), as in the reference; the index is only their path.
 */
export function normalizeMembers(
  schema: unknown,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  args: Args,
  visit: Visit,
): unknown[] {
  // No member schema (`[]`): the value as the response has it, array or not.
  if (schema === undefined) return input as unknown[];
  if (!Array.isArray(input)) throw new TypeError(`expected an array, got ${kindOf(input)}`);
  const list: readonly unknown[] = input;
  const out = new Array<unknown>(list.length);
  for (let i = 0; i < list.length; i++) {
    const member = list[i];
    out[i] =
      member === undefined || member === null
        ? member
        : visit(schema, member, parent, key, args, i);
  }
  return out;
}

/** The members that are not null or undefined. */
export function present(members: unknown[]): unknown[] {
  return members.filter((member) => member !== null && member !== undefined);
}

/** Normalizes the shorthand `[S]`. */
export function normalizeArray(
  schema: readonly unknown[],
  input: unknown,
  parent: unknown,
  key: string | undefined,
  args: Args,
  visit: Visit,
): unknown[] {
  return normalizeMembers(shorthandMember(schema), input, parent, key, args, visit);
}

/** Denormalizes each member, leaving out INVALID and missing ones (null stays). */
export function denormalizeArray(schema: unknown, input: unknown, unvisit: Unvisit): unknown {
  if (!Array.isArray(input)) return input;
  const out: unknown[] = [];
  for (const item of input) {
    const value = unvisit(schema, item);
    if (value !== INVALID && value !== undefined) out.push(value);
  }
  return out;
}

/** Walks each member of a normalized array. */
export function walkMembers(schema: unknown, value: unknown, walk: WalkStored): void {
  if (Array.isArray(value)) for (const member of value) walk(schema, member);
}
