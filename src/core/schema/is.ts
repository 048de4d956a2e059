import { Entity, ENTITY_CLASS } from './entity.js';
import type { EntityClass, SchemaInstance } from './types.js';
export { schemaKeys } from '../util/own.js';

/** True for an Entity subclass (the class itself, not an instance). */
export function isEntityClass(schema: unknown): schema is EntityClass {
  return (
    typeof schema === 'function' &&
    (schema as { [ENTITY_CLASS]?: boolean })[ENTITY_CLASS] === true &&
    schema !== Entity
  );
}

/** True for schema instances such as schema.Array, Collection or Invalidate. */
export function isSchemaInstance(schema: unknown): schema is SchemaInstance {
  return (
    isObject(schema) &&
    typeof (schema as SchemaInstance).normalize === 'function' &&
    typeof (schema as SchemaInstance).denormalize === 'function'
  );
}

/** An Entity class, or a Union of them (it names its member): a schema that is one entity. */
export function holdsEntity(schema: unknown): boolean {
  return (
    isEntityClass(schema) ||
    (isSchemaInstance(schema) &&
      typeof (schema as { entityFor?: unknown }).entityFor === 'function')
  );
}

/** True for an object (an array too), not null. */
export function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** True for an object that is not null and not an array: what a JSON object decodes to. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Array.isArray(value);
}
