import { INVALID } from '../schema/types.js';
import type { Args, EntityTable } from '../schema/types.js';
import { isEntityClass, isObject, isSchemaInstance } from '../schema/is.js';
import { shorthandMember, walkMembers } from '../schema/array.js';
import { walkObject } from '../schema/object.js';
import { getOwn } from '../util/own.js';

/**
 * Calls `found(key, pk)` for every stored entity and list a normalized value reaches, directly or
 * through other entities. The garbage collector keeps exactly these. Each schema walks its own
 * nested values (`SchemaInstance.walk`); this knows only entities and the shorthands.
 * @example visitEntities([Todo], ['1'], entities, [], (key, pk) => keep.add(`${key} ${pk}`));
 */
export function visitEntities(
  schema: unknown,
  input: unknown,
  entities: EntityTable,
  _args: Args,
  found: (key: string, pk: string) => void,
): void {
  const seen = new Set<string>();

  const read = (key: string, pk: string): unknown => {
    const id = `${key}\u0000${pk}`;
    if (seen.has(id)) return undefined;
    seen.add(id);
    found(key, pk);
    const value = getOwn(getOwn(entities, key), pk);
    return value === INVALID ? undefined : value;
  };

  const walk = (node: unknown, value: unknown): void => {
    if (node === undefined || node === null || value === undefined || value === null) return;
    if (isEntityClass(node)) {
      if (typeof value === 'object') return;
      const entity = read(node.key, String(value));
      if (!isObject(entity)) return;
      for (const field of Object.keys(node.schema)) {
        walk(node.schema[field], getOwn(entity as Record<string, unknown>, field));
      }
      return;
    }
    if (isSchemaInstance(node)) node.walk?.(value, walk, read);
    else if (Array.isArray(node)) walkMembers(shorthandMember(node), value, walk);
    else if (typeof node === 'object') walkObject(node as Record<string, unknown>, value, walk);
  };

  walk(schema, input);
}
