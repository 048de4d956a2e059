import type {
  Args,
  Denormalize,
  EntityClass,
  NormalizeDelegate,
  SchemaAttribute,
  SchemaInstance,
  Unvisit,
  Visit,
  WalkStored,
} from './types.js';
import { isEntityClass, isObject, isRecord } from './is.js';
import { getOwn } from '../util/own.js';
import { describeValue, kindOf } from '../util/describe.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

type Choices = { readonly [type: string]: EntityClass };

/**
 * One of several entity types, chosen by a field of the input (`type` by default, or a function
 * of the input, its parent and its key there). Stored as `{ id, schema }`, so each member stays
 * normalized under its own entity key; members are Entity classes, since `{ id, schema }` refers
 * to one stored entity.
 * @example new schema.Union({ user: User, group: Group }, 'kind')
 * @example new schema.Union({ user: User, group: Group }, (input, parent, key) => String(input.kind))
 */
export class UnionSchema<C extends Choices = Choices> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<C[keyof C]>;
  readonly key: string;

  constructor(
    readonly schemas: C,
    readonly schemaAttribute: string | SchemaAttribute = 'type',
  ) {
    const names = isObject(schemas) ? Object.keys(schemas) : [];
    if (!names.length) {
      throw new TypeError(
        `schema.Union needs at least one entity type${DEV() ? ', e.g. new schema.Union({ user: User, group: Group }, "type")' : ''}`,
      );
    }
    // A check of the programmer's own misuse: development only.
    if (DEV()) {
      for (const name of names) {
        if (!isEntityClass(schemas[name])) {
          throw new TypeError(
            `schema.Union member "${name}" must be an Entity class: a schema.Object (or other schema) is not supported, since a Union refers to one stored entity`,
          );
        }
      }
    }
    this.key = names.map((name) => schemas[name]!.key).join('|');
  }

  /**
   * The name of the member type `input` (at `key` in `parent`) is, or undefined when it names
   * none. Throws when the type is a name every object has (`__proto__`, `constructor`…): never
   * a type, not even one the server added since, so the response is refused.
   * @example union.choose({ id: '1', type: 'user' }) // 'user'
   */
  choose(input: Record<string, unknown>, parent?: unknown, key?: string): string | undefined {
    const by = this.schemaAttribute;
    const type = typeof by === 'function' ? by(input, parent, key) : getOwn(input, by);
    if (typeof type !== 'string') return;
    if (getOwn(this.schemas, type)) return type;
    if (type in {}) {
      throw new TypeError(
        `Union ${typeof by === 'function' ? 'schema attribute function' : `field "${by}"`} is "${type}"${DEV() ? ', a name every object has: never a type' : ''}`,
      );
    }
  }

  /**
   * The member entity a value names, e.g. a read's URL params (`{ id, type }`), so a `get` whose
   * schema is a Union can be served from the store. A type function gets the value alone.
   * @example union.entityFor({ id: 1, type: 'user' }) // User
   */
  entityFor(value: Record<string, unknown>): EntityClass | undefined {
    const type = this.choose(value);
    return type === undefined ? type : this.schemas[type];
  }

  /** The `SchemaInstance` step: `{ id, schema }` of the member entity, stored by `visit`. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate?: NormalizeDelegate,
  ): unknown {
    if (!isRecord(input)) throw new TypeError(`Union expected an object, got ${kindOf(input)}`);
    const type = this.choose(input, parent, key);
    if (type !== undefined) {
      return { id: visit(this.schemas[type], input, parent, key, args), schema: type };
    }
    // A type this client does not know yet (a newer server): kept as it came, not an error.
    // Development only, so production bundlers drop it (see Entity.key).
    if (DEV()) {
      console.warn(
        `Union of ${Object.keys(this.schemas).join(', ')}: ${describeValue(input)} names none of them (${typeof this.schemaAttribute === 'function' ? 'schema attribute function' : `field "${this.schemaAttribute}"`}); kept as it is`,
      );
    }
    return input;
  }

  /** The `SchemaInstance` step: the member entity, read from the store. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    const entity = this.#stored(input);
    // Not a normalized member (an unknown type kept as it came): shown as it is.
    return entity ? unvisit(entity, (input as { id: unknown }).id) : input;
  }

  walk(value: unknown, walk: WalkStored): void {
    const entity = this.#stored(value);
    if (entity) walk(entity, (value as { id: unknown }).id);
  }

  /** The member entity a stored `{ id, schema }` names. */
  #stored(value: unknown): EntityClass | undefined {
    const type = (value as { schema?: unknown } | null | undefined)?.schema;
    return typeof type === 'string' ? getOwn(this.schemas, type) : undefined;
  }
}
