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
import { getOwn, setOwn, assignOwn } from '../util/own.js';
import { kindOf } from '../util/describe.js';
import { isObject, isRecord } from './is.js';

type Shape = { readonly [key: string]: Schema | unknown };

/**
 * An object whose members have schemas: `new schema.Object({ results: collection, total: 0 })`,
 * or the same plain object as shorthand. Members not named pass through unchanged; a member
 * that reads as INVALID makes the whole object INVALID.
 * @example schema: { results: new schema.Collection([Todo]), total: 0 }
 */
export class ObjectSchema<S extends Shape = Shape> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<S>;
  constructor(readonly schema: S) {}

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    _parent: unknown,
    _key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate?: NormalizeDelegate,
  ): unknown {
    if (!isRecord(input)) throw new TypeError(`expected an object, got ${kindOf(input)}`);
    const shape = this.schema;
    const out = assignOwn({}, input) as Record<string, unknown>;
    for (const member of Object.keys(shape)) {
      const value = getOwn(out, member);
      if (value === null) continue;
      // A named member that is undefined is left out: the result holds no undefined members.
      const normalized =
        value === undefined ? value : visit(shape[member], value, out, member, args);
      if (normalized === undefined) delete out[member];
      else setOwn(out, member, normalized);
    }
    return out;
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (!isObject(input)) return input;
    const shape = this.schema;
    const out = assignOwn({}, input) as Record<string, unknown>;
    for (const member of Object.keys(shape)) {
      const value = getOwn(out, member);
      if (value === undefined || value === null) continue;
      const denormalized = unvisit(shape[member], value);
      if (denormalized === INVALID) return INVALID;
      setOwn(out, member, denormalized);
    }
    return out;
  }

  walk(value: unknown, walk: WalkStored): void {
    if (!isObject(value)) return;
    for (const member of Object.keys(this.schema)) {
      walk(this.schema[member], getOwn(value as Record<string, unknown>, member));
    }
  }
}
