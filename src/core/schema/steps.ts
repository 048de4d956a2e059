/**
 * The one place the walkers (normalize, walk) find what to call for a schema: an Entity class and
 * a schema instance carry their own steps; the shorthands `[S]` and `{ member: S }` get an
 * ArraySchema or ObjectSchema made once per shorthand object.
 */
import { ArraySchema, shorthandMember } from './array.js';
import { ObjectSchema } from './object.js';
import { isEntityClass, isSchemaInstance } from './is.js';
import type { EntityClass, Schema, SchemaInstance } from './types.js';

const shorthands = new WeakMap<object, SchemaInstance>();

/**
 * The schema with steps for `schema`, or undefined for a value that is not one (the value is
 * then kept as it is).
 * @example stepsOf([Todo]).normalize(...) // an ArraySchema of Todo that keeps empty members
 */
export function stepsOf(schema: unknown): EntityClass | SchemaInstance | undefined {
  if (isEntityClass(schema) || isSchemaInstance(schema)) return schema;
  if (schema === null || typeof schema !== 'object') return undefined;
  let steps = shorthands.get(schema);
  if (steps === undefined) {
    steps = Array.isArray(schema)
      ? new ArraySchema(shorthandMember(schema) as Schema, true)
      : new ObjectSchema(schema as Record<string, unknown>);
    shorthands.set(schema, steps);
  }
  return steps;
}
