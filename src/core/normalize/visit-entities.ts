import { INVALID } from '../schema/types.js';
import type { Args, EntityTable } from '../schema/types.js';
import { stepsOf } from '../schema/steps.js';
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
    if (value !== undefined && value !== null) stepsOf(node)?.walk?.(value, walk, read);
  };

  walk(schema, input);
}
