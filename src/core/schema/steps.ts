/**
 * The one place the walkers (normalize, walk) find what to call for a schema: an Entity class and
 * a schema instance carry their own steps; the shorthands `[S]` and `{ member: S }` get an
 * ArraySchema or ObjectSchema made once per shorthand object.
 */
import { ArraySchema, checkShorthand } from './array.js';
import { ObjectSchema } from './object.js';
import { isEntityClass, isObject, isSchemaInstance } from './is.js';
import { once } from '../util/own.js';
import type { EntityClass, Schema, SchemaInstance } from './types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The steps of a shorthand, made once per shorthand object. */
const shorthand = once((schema: object): SchemaInstance => {
  if (!Array.isArray(schema)) return new ObjectSchema(schema as Record<string, unknown>);
  if (DEV()) checkShorthand(schema);
  return new ArraySchema(schema[0] as Schema, true);
});

/**
 * How a field type (`Date`, a class with `fromJSON`, a function) is read: set when
 * `resource-elements/fields` loads (src/core/field-types.ts), so the main entry does not carry it.
 */
export const fieldTypes: { steps?: (type: Function) => SchemaInstance } = {};
/** Field types already said to be unread (development), so each is said once. */
const unread = new WeakSet<Function>();

/**
 * The schema with steps for `schema`, or undefined for a value that is not one (the value is
 * then kept as it is).
 * @example stepsOf([Todo]).normalize(...) // an ArraySchema of Todo that keeps empty members
 */
export function stepsOf(schema: unknown): EntityClass | SchemaInstance | undefined {
  if (isEntityClass(schema) || isSchemaInstance(schema)) return schema;
  if (typeof schema == 'function') {
    if (DEV() && !fieldTypes.steps && !unread.has(schema)) {
      unread.add(schema);
      console.warn(
        `resource-elements: the field type ${schema.name || 'function'} in a schema is not read until resource-elements/fields is imported (import 'resource-elements/fields' once, e.g. in your resources module): its values stay as the server sent them.`,
      );
    }
    return fieldTypes.steps?.(schema);
  }
  return isObject(schema) ? shorthand(schema) : undefined;
}
