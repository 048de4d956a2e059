/**
 * `resource-elements/fields`: import it once and the field types of entity schemas are read,
 * `static schema = { created: Date }` giving `Date`s, a class with a static `fromJSON(value)` or a
 * function of the value converting any field. Its own entry, so apps without field types do not
 * carry it.
 * @example
 * import 'resource-elements/fields';
 * class Todo extends Entity {
 *   created = new Date(0);
 *   static schema = { created: Date };
 * }
 * @module resource-elements/fields
 */
import '../core/field-types.js';

export type { FieldType } from '../core/index.js';
