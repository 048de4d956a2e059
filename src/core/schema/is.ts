import { Entity } from './entity.js';
import type { EntityClass, SchemaInstance } from './types.js';

/** True for an Entity subclass (the class itself, not an instance). */
export function isEntityClass(schema: unknown): schema is EntityClass {
  return typeof schema === 'function' && schema.prototype instanceof Entity;
}

/** True for schema instances such as schema.Array, Collection or Invalidate. */
export function isSchemaInstance(schema: unknown): schema is SchemaInstance {
  return (
    schema !== null &&
    typeof schema === 'object' &&
    typeof (schema as SchemaInstance).normalize === 'function' &&
    typeof (schema as SchemaInstance).denormalize === 'function'
  );
}
