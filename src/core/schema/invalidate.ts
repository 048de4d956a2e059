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
import { describeValue, kindOf } from '../util/describe.js';

/**
 * Marks an entity INVALID: it drops out of every list and collection, and a read that requires
 * it is fetched again. The input is the pk itself, or an object from which `pk()` is computed.
 * @example const remove = new RestEndpoint({ path: '/todos/:id', method: 'DELETE', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<E extends EntityClass = EntityClass> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<E>;
  constructor(readonly entity: E) {
    if (!isEntityClass(entity)) {
      throw new TypeError(
        `schema.Invalidate takes the Entity class to invalidate, e.g. new schema.Invalidate(Todo): got ${kindOf(entity)}`,
      );
    }
  }

  get key(): string {
    return this.entity.key;
  }

  /** The pk of the entity the input points to. */
  pkOf(input: unknown, parent?: unknown, key?: string, args?: Args): string {
    if (typeof input === 'string' || typeof input === 'number') return String(input);
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new TypeError(
        `Invalidate(${this.entity.key}) expected a pk or an object, got ${kindOf(input)}`,
      );
    }
    const pk = this.entity.pk(input, parent, key, args);
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
    delegate.invalidate(this.entity.key, pk);
    // Nested (in an array or object), the result is the pk, read back through the store, so the
    // INVALID entry drops out. As the whole response (a delete) the result stays what the call
    // said, and reading it back builds an instance from that instead.
    return key === undefined ? input : pk;
  }

  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (input === null || input === undefined) return input;
    // A pk (nested): read like the entity, so an INVALID one drops out of lists.
    if (typeof input !== 'object') return unvisit(this.entity, input);
    return this.entity.fromJS(input as object);
  }

  walk(value: unknown, walk: WalkStored): void {
    if (typeof value === 'string' || typeof value === 'number') walk(this.entity, value);
  }
}
