/**
 * The one place the walkers (normalize, walk) find what to call for a schema: an Entity class and
 * a schema instance carry their own steps; the shorthands `[S]` and `{ member: S }` get an
 * ArraySchema or ObjectSchema made once per shorthand object.
 */
import { ArraySchema, shorthandMember } from './array.js';
import { ObjectSchema } from './object.js';
import { isEntityClass, isObject, isSchemaInstance } from './is.js';
import { once } from '../util/own.js';
import { describeValue } from '../util/describe.js';
import type { EntityClass, Schema, SchemaInstance } from './types.js';

/** The steps of a shorthand, made once per shorthand object. */
const shorthand = once((schema: object): SchemaInstance =>
  Array.isArray(schema)
    ? new ArraySchema(shorthandMember(schema) as Schema, true)
    : new ObjectSchema(schema as Record<string, unknown>),
);

/**
 * The steps of a field type (`Date`, a class with `fromJSON`, a function): the store keeps the
 * JSON value (a `Date` written in code is kept as its ISO text), readers get the converted one.
 */
const fieldType = once(
  // Typed loosely: Date, a class and a function are each called their own way.
  (type: any): SchemaInstance => ({
    normalize(input: any, _parent, _key, _args, _visit, { fail }) {
      input = input.toJSON?.() ?? input;
      if (type === Date && isNaN(Date.parse(input)))
        fail(`Expected a date, got ${describeValue(input)}`);
      return input;
    },
    denormalize: (input) =>
      type.fromJSON ? type.fromJSON(input) : type.prototype ? new type(input) : type(input),
  }),
);

/**
 * The schema with steps for `schema`, or undefined for a value that is not one (the value is
 * then kept as it is).
 * @example stepsOf([Todo]).normalize(...) // an ArraySchema of Todo that keeps empty members
 */
export function stepsOf(schema: unknown): EntityClass | SchemaInstance | undefined {
  if (isEntityClass(schema) || isSchemaInstance(schema)) return schema;
  if (typeof schema == 'function') return fieldType(schema);
  return isObject(schema) ? shorthand(schema) : undefined;
}
