import { INVALID } from './types.js';
import type {
  Args,
  Denormalize,
  NormalizeDelegate,
  Schema,
  SchemaInstance,
  Unvisit,
  Visit,
} from './types.js';
import { kindOf } from '../util/describe.js';

/**
 * A list of values of one schema: `new schema.Array(Todo)`, or the shorthand `[Todo]`.
 * INVALID entities are left out when it is read.
 * @example static schema = { comments: new schema.Array(Comment) };
 */
export class ArraySchema<S extends Schema = Schema> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<S>[];
  constructor(readonly schema: S) {}

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate: NormalizeDelegate,
  ): unknown {
    return normalizeArray(this.schema, input, parent, key, args, visit);
  }

  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    return denormalizeArray(this.schema, input, unvisit);
  }
}

/** Normalizes each member of an array (shared by `[S]` and `schema.Array`). */
export function normalizeArray(
  schema: unknown,
  input: unknown,
  _parent: unknown,
  _key: string | undefined,
  args: Args,
  visit: Visit,
): unknown[] {
  if (!Array.isArray(input)) {
    throw new TypeError(`expected an array, got ${kindOf(input)}`);
  }
  const out = new Array<unknown>(input.length);
  for (let i = 0; i < input.length; i++) out[i] = visit(schema, input[i], input, String(i), args);
  return out;
}

/** Denormalizes each member, leaving out INVALID and missing ones. */
export function denormalizeArray(schema: unknown, input: unknown, unvisit: Unvisit): unknown {
  if (!Array.isArray(input)) return input;
  const out: unknown[] = [];
  for (const item of input) {
    const value = unvisit(schema, item);
    if (value !== INVALID && value !== undefined) out.push(value);
  }
  return out;
}
