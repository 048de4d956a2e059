import { INVALID } from '../schema/types.js';
import type { Args, EntityTable } from '../schema/types.js';
import { isEntityClass } from '../schema/is.js';
import { Collection } from '../schema/collection.js';
import { ArraySchema } from '../schema/array.js';
import { ObjectSchema } from '../schema/object.js';
import { ValuesSchema } from '../schema/values.js';
import { UnionSchema } from '../schema/union.js';
import { getOwn } from '../util/own.js';

/**
 * Calls `found(key, pk)` for every stored entity and list a normalized value reaches, directly or
 * through other entities. The garbage collector keeps exactly these.
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

  const stored = (key: string, pk: string): unknown => {
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
      const entity = stored(node.key, String(value)) as Record<string, unknown> | undefined;
      if (!entity) return;
      for (const field of Object.keys(node.schema)) walk(node.schema[field], getOwn(entity, field));
      return;
    }
    if (node instanceof Collection) {
      if (node.readsList && typeof value !== 'object') {
        const list = stored(node.key, String(value));
        if (Array.isArray(list)) for (const member of list) walk(node.schema[0], member);
      } else if (Array.isArray(value)) {
        for (const member of value) walk(node.schema[0], member);
      } else {
        walk(node.schema[0], value);
      }
      return;
    }
    if (node instanceof ArraySchema || Array.isArray(node)) {
      const inner = node instanceof ArraySchema ? node.schema : (node as unknown[])[0];
      if (Array.isArray(value)) for (const member of value) walk(inner, member);
      return;
    }
    if (node instanceof ValuesSchema) {
      if (typeof value === 'object')
        for (const member of Object.values(value as object)) walk(node.schema, member);
      return;
    }
    if (node instanceof UnionSchema) {
      const { id, schema } = value as { id: unknown; schema: string };
      walk(getOwn(node.schemas, schema), id);
      return;
    }
    const shape = node instanceof ObjectSchema ? node.schema : node;
    if (
      typeof shape === 'object' &&
      typeof value === 'object' &&
      !('normalize' in (shape as object))
    ) {
      for (const member of Object.keys(shape as object)) {
        walk(
          (shape as Record<string, unknown>)[member],
          getOwn(value as Record<string, unknown>, member),
        );
      }
    }
  };

  walk(schema, input);
}
