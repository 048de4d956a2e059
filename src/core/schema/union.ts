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
    if (names.length === 0) {
      throw new TypeError(
        `schema.Union needs at least one entity type${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ', e.g. new schema.Union({ user: User, group: Group }, "type")' : ''}`,
      );
    }
    for (const name of names) {
      if (!isEntityClass(schemas[name])) {
        throw new TypeError(
          `schema.Union member "${name}" must be an Entity class${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ': a schema.Object (or other schema) is not supported, since a Union refers to one stored entity' : ''}`,
        );
      }
    }
    this.key = Object.values(schemas)
      .map((schema) => schema.key)
      .join('|');
  }

  /**
   * The name of the member type `input` (at `key` in `parent`) is, or undefined when it names
   * none. Throws when the type is a name every object has (`__proto__`, `constructor`…).
   */
  choose(input: Record<string, unknown>, parent?: unknown, key?: string): string | undefined {
    const type =
      typeof this.schemaAttribute === 'function'
        ? this.schemaAttribute(input, parent, key)
        : getOwn(input, this.schemaAttribute);
    if (typeof type !== 'string') return undefined;
    if (getOwn(this.schemas, type) !== undefined) return type;
    // `__proto__`, `constructor`, `toString`…: a name every object has is never a type (not one
    // the server added since): the response is refused.
    if (type in {}) {
      throw new TypeError(
        `Union ${typeof this.schemaAttribute === 'function' ? 'schema attribute function' : `field "${this.schemaAttribute}"`} is "${type}"${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ', a name every object has: never a type' : ''}`,
      );
    }
    return undefined;
  }

  /**
   * The member entity and pk a read's URL params name (`{ id, type }`), so a `get` whose schema
   * is a Union can be served from the store. A type function gets the params alone (no parent).
   * @example union.entityFor({ id: 1, type: 'user' }) // User
   */
  entityFor(params: Record<string, unknown>): EntityClass | undefined {
    const type = this.choose(params);
    return type === undefined ? undefined : this.schemas[type];
  }

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate: NormalizeDelegate,
  ): unknown {
    if (!isRecord(input)) {
      throw new TypeError(`Union expected an object, got ${kindOf(input)}`);
    }
    const type = this.choose(input as Record<string, unknown>, parent, key);
    if (type === undefined) {
      // A type this client does not know yet (a newer server): kept as it came, not an error.
      // Development only, tested inline so production bundlers drop it (see Entity.key).
      if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production') {
        console.warn(
          `Union of ${Object.keys(this.schemas).join(', ')}: ${describeValue(input)} names none of them (${typeof this.schemaAttribute === 'function' ? 'schema attribute function' : `field "${this.schemaAttribute}"`}); kept as it is`,
        );
      }
      return input;
    }
    return { id: visit(this.schemas[type], input, parent, key, args), schema: type };
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (!isObject(input)) return input;
    const { id, schema } = input as { id: unknown; schema: unknown };
    const chosen = typeof schema === 'string' ? getOwn(this.schemas, schema) : undefined;
    // Not a normalized member (an unknown type kept as it came): shown as it is.
    return chosen === undefined ? input : unvisit(chosen, id);
  }

  walk(value: unknown, walk: WalkStored): void {
    if (!isObject(value)) return;
    const { id, schema } = value as { id: unknown; schema: unknown };
    if (typeof schema === 'string') walk(getOwn(this.schemas, schema), id);
  }
}
