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
import { holdsEntity, isEntityClass, isRecord } from './is.js';
import { pkProblem } from './entity.js';
// Type only: a Union is told from an Entity class by what it is, so Invalidate alone (the first
// app's delete) does not bring union.ts into a bundle.
import type { UnionSchema } from './union.js';
import { describeValue, kindOf } from '../util/describe.js';
import { once } from '../util/own.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** Development advice for an input that names no member of `union`: the field to give. */
function typeFieldAdvice({ schemaAttribute }: UnionSchema): string {
  const field = typeof schemaAttribute === 'string' ? schemaAttribute : 'type';
  return `: give an object with its "${field}" field, e.g. { id, ${field} }`;
}

/**
 * Marks an entity INVALID: it drops out of every list and collection, and a read that requires
 * it goes back to pending and is fetched again; a read still INVALID right after its own answer
 * is an error naming the entity it lacks, never another request. The input is the pk itself, or
 * an object from which `pk()` is computed.
 * Given a Union, the member type is read from the input object (its type field), so a bare pk
 * cannot say which entity it is. When the whole response gives no usable pk (`{ success: true }`,
 * or a pk() that makes "undefined" of it), the call's URL params are used in its place.
 * @example const remove = new RestEndpoint({ path: '/todos/:id', method: 'DELETE', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<
  E extends EntityClass | UnionSchema<any> = EntityClass,
> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<E>;
  constructor(readonly entity: E) {
    // A check of the programmer's own misuse: development only.
    if (DEV() && !holdsEntity(entity)) {
      throw new TypeError(
        `schema.Invalidate takes an Entity class or schema.Union, e.g. new schema.Invalidate(Todo): got ${kindOf(entity)}`,
      );
    }
  }

  get key(): string {
    return this.entity.key;
  }

  /**
   * The entity class the input stands for: the one given, or the Union member it names.
   * @example new schema.Invalidate(union).entityOf({ id: '1', type: 'user' }) // User
   */
  entityOf(input: unknown): EntityClass {
    const target = this.entity as EntityClass | UnionSchema;
    const chosen = isEntityClass(target)
      ? target
      : isRecord(input)
        ? target.entityFor(input)
        : undefined;
    if (chosen) return chosen;
    throw new TypeError(
      `Invalidate(${target.key}) cannot tell which of ${Object.keys((target as UnionSchema).schemas).join(', ')} ${describeValue(input)} is${DEV() ? typeFieldAdvice(target as UnionSchema) : ''}`,
    );
  }

  /**
   * The pk of the entity the input points to: the input itself, or computed from it by `pk()`.
   * @example new schema.Invalidate(Todo).pkOf({ id: 5 }) // '5'
   */
  pkOf(input: unknown, parent?: unknown, key?: string, args?: Args): string {
    // A Union says it cannot tell which member a bare pk is.
    const entity = this.entityOf(input);
    const pk =
      typeof input === 'string' || typeof input === 'number'
        ? input
        : isRecord(input)
          ? entity.pk(input, parent, key, args)
          : undefined;
    if (pkProblem(pk)) {
      throw new TypeError(
        `Invalidate(${this.key}) could not compute a pk from ${describeValue(input)}`,
      );
    }
    return String(pk);
  }

  /** The `SchemaInstance` step: marks the entity INVALID; the result is its pk, or the input. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    _visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown {
    // The whole response is its own parent (an array member has the array's parent and key).
    const whole = parent === input;
    let pk: string;
    try {
      pk = this.pkOf(input, parent, key, args);
    } catch (error) {
      // The whole response gives no pk (`{ success: true }`): the URL params of the call stand
      // for it (spec rule 8), and the call resolves with an entity built from them. When they
      // give none either, the error says what the response was (the URL shows the params).
      if (!whole) throw error;
      input = args[0];
      try {
        pk = this.pkOf(input, parent, key, args);
      } catch {
        throw error;
      }
    }
    delegate.invalidate(this.entityOf(input).key, pk);
    // Nested (in an array or object), the result is the pk (with a Union, `{ id, schema }` as
    // the Union stores it: its own step, given the pk for the member), read back through the
    // store, so the INVALID entry drops out. As the whole response (a delete) the result stays
    // what the call said, and reading it back builds an instance from that instead.
    const target = this.entity as EntityClass | UnionSchema;
    return whole
      ? input
      : isEntityClass(target)
        ? pk
        : target.normalize(input, undefined, undefined, args, () => pk);
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, args: Args, unvisit: Unvisit): unknown {
    const target = this.entity as EntityClass | UnionSchema;
    // A pk (nested): read like the entity (or a Union's `{ id, schema }` like the Union), so an
    // INVALID one drops out of lists; the whole response: an instance of its type.
    return !isRecord(input)
      ? unvisit(target, input)
      : isEntityClass(target) || typeof input.schema !== 'string'
        ? this.entityOf(input).fromJS(input)
        : target.denormalize(input, args, unvisit);
  }

  walk(value: unknown, walk: WalkStored): void {
    // A Union walks its `{ id, schema }`, an entity its pk (and skips an object: not stored).
    walk(this.entity, value);
  }
}

/**
 * The schema that marks an entity of `entity` INVALID, one per class: what a pushed deletion is
 * written with (`controller.invalidate(Todo, '1')`), so the Controller names no schema class.
 * @example controller.set(invalidating(Todo), '1')
 */
export const invalidating = once((entity: EntityClass) => new Invalidate(entity));
