import { INVALID } from './types.js';
import type {
  Args,
  Denormalize,
  Schema,
  SchemaInstance,
  Unvisit,
  Visit,
  WalkStored,
} from './types.js';
import { setOwn } from '../util/own.js';
import { kindOf } from '../util/describe.js';
import { isObject, isRecord } from './is.js';

/**
 * The members of `map` made into `step(value, member)`, those that are undefined or INVALID left
 * out: normalized or read, the result holds only members there are.
 */
function mapMembers(
  map: object,
  step: (value: unknown, member: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of Object.keys(map)) {
    const value = step((map as Record<string, unknown>)[member], member);
    if (value !== undefined && value !== INVALID) setOwn(out, member, value);
  }
  return out;
}

/**
 * A map from arbitrary keys to values of one schema (`{ [id]: Todo }`). INVALID members are left
 * out when it is read.
 * @example static schema = { todosById: new schema.Values(Todo) };
 */
export class ValuesSchema<S extends Schema = Schema> implements SchemaInstance {
  declare readonly _denormalized?: Record<string, Denormalize<S>>;
  constructor(readonly schema: S) {}

  /** The `SchemaInstance` step: each value normalized (null and undefined ones left out). */
  normalize(
    input: unknown,
    _parent: unknown,
    _key: string | undefined,
    args: Args,
    visit: Visit,
  ): unknown {
    if (!isRecord(input)) {
      throw new TypeError(`expected an object of values, got ${kindOf(input)}`);
    }
    return mapMembers(input, (value, member) =>
      value == null ? undefined : visit(this.schema, value, input, member, args),
    );
  }

  /** The `SchemaInstance` step: each value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    return isObject(input) ? mapMembers(input, (value) => unvisit(this.schema, value)) : input;
  }

  walk(value: unknown, walk: WalkStored): void {
    if (isObject(value)) mapMembers(value, (member) => walk(this.schema, member));
  }
}
