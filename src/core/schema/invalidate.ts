import type {
  Args,
  Denormalize,
  EntityClass,
  NormalizeDelegate,
  SchemaInstance,
  Unvisit,
  Visit,
  WalkStored,
} from './types.js';
import { isEntityClass } from './is.js';
import { UnionSchema } from './union.js';
import { getOwn } from '../util/own.js';
import { describeValue, kindOf } from '../util/describe.js';

/**
 * Marks an entity INVALID: it drops out of every list and collection, and a read that requires
 * it is fetched again. The input is the pk itself, or an object from which `pk()` is computed.
 * Given a Union, the member type is read from the input object (its type field), so a bare pk
 * cannot say which entity it is.
 * @example const remove = new RestEndpoint({ path: '/todos/:id', method: 'DELETE', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<
  E extends EntityClass | UnionSchema<any> = EntityClass,
> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<E>;
  constructor(readonly entity: E) {
    if (!isEntityClass(entity) && !(entity instanceof UnionSchema)) {
      throw new TypeError(
        `schema.Invalidate takes the Entity class (or schema.Union) to invalidate, e.g. new schema.Invalidate(Todo): got ${kindOf(entity)}`,
      );
    }
  }

  get key(): string {
    return this.entity.key;
  }

  /** The entity class the input stands for: the one given, or the Union member it names. */
  entityOf(input: unknown): EntityClass {
    const target = this.entity as EntityClass | UnionSchema;
    if (!(target instanceof UnionSchema)) return target;
    const chosen =
      input !== null && typeof input === 'object' && !Array.isArray(input)
        ? target.entityFor(input as Record<string, unknown>)
        : undefined;
    if (chosen === undefined) {
      const field = typeof target.schemaAttribute === 'string' ? target.schemaAttribute : 'type';
      throw new TypeError(
        `Invalidate(${target.key}) cannot tell which of ${Object.keys(target.schemas).join(', ')} ${describeValue(input)} is: give an object with its "${field}" field, e.g. { id, ${field} }`,
      );
    }
    return chosen;
  }

  /** The pk of the entity the input points to. */
  pkOf(input: unknown, parent?: unknown, key?: string, args?: Args): string {
    if (isEntityClass(this.entity) && (typeof input === 'string' || typeof input === 'number'))
      return String(input);
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      if (!isEntityClass(this.entity)) this.entityOf(input);
      throw new TypeError(
        `Invalidate(${this.entity.key}) expected a pk or an object, got ${kindOf(input)}`,
      );
    }
    const pk = this.entityOf(input).pk(input, parent, key, args);
    if (pk === undefined || pk === null || pk === '') {
      throw new TypeError(
        `Invalidate(${this.entity.key}) could not compute a pk from ${describeValue(input)}`,
      );
    }
    return String(pk);
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    _visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown {
    const pk = this.pkOf(input, parent, key, args);
    const entity = this.entityOf(input);
    delegate.invalidate(entity.key, pk);
    // Nested (in an array or object), the result is the pk (with a Union, `{ id, schema }` as
    // the Union stores it), read back through the store, so the INVALID entry drops out. As the
    // whole response (a delete) the result stays what the call said, and reading it back builds
    // an instance from that instead.
    if (key === undefined) return input;
    if (this.entity instanceof UnionSchema) {
      return {
        id: pk,
        schema: (this.entity as UnionSchema).choose(input as Record<string, unknown>),
      };
    }
    return pk;
  }

  denormalize(input: unknown, args: Args, unvisit: Unvisit): unknown {
    if (input === null || input === undefined) return input;
    const target = this.entity as EntityClass | UnionSchema;
    if (target instanceof UnionSchema) {
      // Nested `{ id, schema }`: read like the Union; the whole response: an instance of its type.
      if (
        typeof input !== 'object' ||
        typeof getOwn(input as Record<string, unknown>, 'schema') === 'string'
      )
        return target.denormalize(input, args, unvisit);
      return this.entityOf(input).fromJS(input as object);
    }
    // A pk (nested): read like the entity, so an INVALID one drops out of lists.
    if (typeof input !== 'object') return unvisit(target, input);
    return target.fromJS(input as object);
  }

  walk(value: unknown, walk: WalkStored): void {
    const target = this.entity as EntityClass | UnionSchema;
    if (target instanceof UnionSchema) target.walk(value, walk);
    else if (typeof value === 'string' || typeof value === 'number') walk(target, value);
  }
}
