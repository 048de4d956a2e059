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
import { setOwn } from '../util/own.js';
import { kindOf } from '../util/describe.js';
import { isObject, isRecord } from './is.js';

/**
 * A map from arbitrary keys to values of one schema (`{ [id]: Todo }`). INVALID members are left
 * out when it is read.
 * @example static schema = { todosById: new schema.Values(Todo) };
 */
export class ValuesSchema<S extends Schema = Schema> implements SchemaInstance {
  declare readonly _denormalized?: Record<string, Denormalize<S>>;
  constructor(readonly schema: S) {}

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    _parent: unknown,
    _key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate: NormalizeDelegate,
  ): unknown {
    if (!isRecord(input)) {
      throw new TypeError(`expected an object of values, got ${kindOf(input)}`);
    }
    // Null and undefined values are left out: the result holds only normalized members.
    const out: Record<string, unknown> = {};
    for (const member of Object.keys(input)) {
      const value = (input as Record<string, unknown>)[member];
      if (value === undefined || value === null) continue;
      const normalized = visit(this.schema, value, input, member, args);
      if (normalized !== undefined) setOwn(out, member, normalized);
    }
    return out;
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (!isObject(input)) return input;
    const out: Record<string, unknown> = {};
    for (const member of Object.keys(input)) {
      const value = unvisit(this.schema, (input as Record<string, unknown>)[member]);
      if (value !== INVALID && value !== undefined) setOwn(out, member, value);
    }
    return out;
  }

  walk(value: unknown, walk: WalkStored): void {
    if (isObject(value)) for (const member of Object.values(value)) walk(this.schema, member);
  }
}
