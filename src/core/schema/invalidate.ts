import type {
  Args,
  Denormalize,
  EntityClass,
  NormalizeDelegate,
  SchemaInstance,
  Unvisit,
  Visit,
} from './types.js';
import { describeValue, kindOf } from '../util/describe.js';

/**
 * Marks an entity INVALID: it drops out of every list and collection, and a read that requires
 * it is fetched again. The input is the pk itself, or an object from which `pk()` is computed.
 * @example const remove = new RestEndpoint({ path: '/todos/:id', method: 'DELETE', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<E extends EntityClass = EntityClass> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<E>;
  constructor(readonly entity: E) {}

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
    delegate.invalidate(this.entity.key, this.pkOf(input, parent, key, args));
    // The result stays the input itself: the entity it named is INVALID now, so reading it back
    // builds an instance from what the call said instead.
    return input;
  }

  denormalize(input: unknown, _args: Args, _unvisit: Unvisit): unknown {
    if (input === null || typeof input !== 'object') return input;
    return this.entity.fromJS(input as object);
  }
}
