import type {
  Args,
  Denormalize,
  EntityClass,
  NormalizeDelegate,
  SchemaInstance,
  Unvisit,
  Visit,
} from './types.js';
import { getOwn } from '../util/own.js';
import { describeValue, kindOf } from '../util/describe.js';

type Choices = { readonly [type: string]: EntityClass };

/**
 * One of several entity types, chosen by a field of the input (`type` by default, or a function).
 * Stored as `{ id, schema }`, so each member stays normalized under its own entity key.
 * @example new schema.Union({ user: User, group: Group }, 'kind')
 */
export class UnionSchema<C extends Choices = Choices> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<C[keyof C]>;
  readonly key: string;

  constructor(
    readonly schemas: C,
    readonly schemaAttribute: string | ((input: Record<string, unknown>) => string) = 'type',
  ) {
    this.key = Object.values(schemas)
      .map((schema) => schema.key)
      .join('|');
  }

  private choose(input: Record<string, unknown>): string {
    const type =
      typeof this.schemaAttribute === 'function'
        ? this.schemaAttribute(input)
        : getOwn(input, this.schemaAttribute);
    if (typeof type !== 'string' || getOwn(this.schemas, type) === undefined) {
      const field =
        typeof this.schemaAttribute === 'function'
          ? 'the schema attribute function'
          : `field "${this.schemaAttribute}"`;
      throw new TypeError(
        `Union of ${Object.keys(this.schemas).join(', ')}: ${field} gave ${describeValue(type)}, which names none of them`,
      );
    }
    return type;
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    _delegate: NormalizeDelegate,
  ): unknown {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new TypeError(`Union expected an object, got ${kindOf(input)}`);
    }
    const type = this.choose(input as Record<string, unknown>);
    return { id: visit(this.schemas[type], input, parent, key, args), schema: type };
  }

  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    if (input === null || typeof input !== 'object') return input;
    const { id, schema } = input as { id: unknown; schema: string };
    const chosen = getOwn(this.schemas, schema);
    return chosen === undefined ? undefined : unvisit(chosen, id);
  }
}
