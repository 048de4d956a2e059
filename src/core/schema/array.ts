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
  constructor(
    readonly schema: S,
    /**
     * True for the shorthand `[S]` in a schema: the response's array is taken as it is, empty
     * members included, and anything else is an error.
     */
    readonly shorthand = false,
  ) {}

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate?: NormalizeDelegate,
  ): unknown {
    const { schema, shorthand } = this;
    // An object stands for the list of its values (a map keyed by id, say).
    const list = !shorthand && isRecord(input) ? Object.values(input) : input;
    // No member schema (`[]`): the value as the response has it, array or not.
    if (schema === undefined) return list;
    if (!Array.isArray(list)) throw new TypeError(`expected an array, got ${kindOf(list)}`);
    // Members see the array's parent and key (a Union's schemaAttribute, an Entity's process and
    // pk), as in the reference; the index is only their path. The loop is here, not in a
    // helper: deep graphs recurse through it, and 1,000 nested entities must fit the stack.
    const out = new Array<unknown>(list.length);
    for (let i = 0; i < list.length; i++) {
      const member: unknown = list[i];
      out[i] =
        member === undefined || member === null
          ? member
          : visit(schema, member, parent, key, args, i);
    }
    return shorthand ? out : present(out);
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (!Array.isArray(input)) return input;
    const out: unknown[] = [];
    for (const item of input) {
      const value = unvisit(this.schema, item);
      if (value !== INVALID && value !== undefined) out.push(value);
    }
    return out;
  }

  walk(value: unknown, walk: WalkStored): void {
    if (Array.isArray(value)) for (const member of value) walk(this.schema, member);
  }
}

/**
 * Refuses a shorthand `[S]` of more than one member, a mistake in the schema (a check of the
 * programmer's own misuse: called in development only). Its member is `schema[0]`; `[]` has
 * none: it is a default value, whose value passes through as the response has it.
 */
export function checkShorthand(schema: readonly unknown[]): void {
  if (schema.length > 1) {
    throw new TypeError(
      `An array schema takes one member schema, got ${schema.length}: for several types use new schema.Union(...)`,
    );
  }
}

/** The members that are not null or undefined. */
export function present(members: unknown[]): unknown[] {
  return members.filter((member) => member !== null && member !== undefined);
}
