import type {
  Args,
  Denormalize,
  EntityClass,
  NormalizeDelegate,
  Schema,
  SchemaInstance,
  Unvisit,
  ReadStored,
  Visit,
  WalkStored,
} from './types.js';
import { INVALID } from './types.js';
import { present } from './array.js';
import { stepsOf } from './steps.js';
import { canonicalArgs, parseCanonicalArgs } from './list-key.js';
import type { ListArgValue } from './list-key.js';
import { hasOwn } from '../util/own.js';
import { kindOf } from '../util/describe.js';
import { isEntityClass, isObject, isRecord } from './is.js';

/** Combines a stored list with incoming members (both normalized). */
export type CollectionMerge = (
  existing: readonly unknown[],
  incoming: readonly unknown[],
) => unknown[];
/** Given a call's args, says whether a stored list (by its args) takes the created members. */
export type CreateCollectionFilter = (
  ...args: Args
) => (listArgs: Record<string, ListArgValue>) => boolean;

/**
 * Options of `new schema.Collection([S], options)`.
 * @example new schema.Collection([Todo], { nonFilterArgumentKeys: ['sort'] })
 */
export interface CollectionOptions {
  /** Store key of the lists; defaults to `[<entity key>]`. */
  key?: string;
  /** For a collection nested in an entity: the args of the list it is, from the parent. */
  nestKey?: (parent: Record<string, unknown>, key: string) => Record<string, unknown>;
  /**
   * Argument keys that do not decide which lists a created member joins: a test, a pattern, or
   * the keys themselves (default: keys starting with `order`).
   */
  nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
  /** Replaces the default filter (every filtering key of a list equals the call's arg or body). */
  createCollectionFilter?: CreateCollectionFilter;
}

type Mode = 'list' | 'add' | Variant;
type Variant = 'push' | 'unshift' | 'remove' | 'move';

/**
 * `collection.push` / `.unshift` / `.remove` / `.move`: normalizes the response's members and
 * resolves to them (the entity, or the entities of an array response).
 */
export type CreatingCollection<S extends readonly [Schema]> = Omit<
  Collection<S>,
  '_denormalized'
> & {
  readonly _denormalized?: Denormalize<S[0]>;
};

/** The steps of a collection's members: those of the `[S]` shorthand (an array of S). */
const membersOf = (schema: readonly [Schema]) => stepsOf(schema) as SchemaInstance;

function memberKey(member: unknown): string {
  return typeof member === 'string' ? member : JSON.stringify(member);
}

/** `existing` then every incoming member not already there (a member is never listed twice). */
export function appendNew(existing: readonly unknown[], incoming: readonly unknown[]): unknown[] {
  const seen = new Set(existing.map(memberKey));
  const out = existing.slice();
  for (const member of incoming) {
    const id = memberKey(member);
    if (!seen.has(id)) {
      seen.add(id);
      out.push(member);
    }
  }
  return out;
}

/** Incoming members not already in `existing`, then `existing` (a member keeps its place). */
function prependNew(existing: readonly unknown[], incoming: readonly unknown[]): unknown[] {
  const seen = new Set(existing.map(memberKey));
  return [
    ...withoutDuplicates(incoming.filter((member) => !seen.has(memberKey(member)))),
    ...existing,
  ];
}

function withoutDuplicates(list: readonly unknown[]): unknown[] {
  return appendNew([], list);
}

function matches(source: unknown, key: string, expected: ListArgValue): boolean {
  if (!isObject(source) || !hasOwn(source, key)) return false;
  const value = (source as Record<string, unknown>)[key];
  return (
    value !== undefined && canonicalArgs({ [key]: value }) === canonicalArgs({ [key]: expected })
  );
}

/**
 * Lists of entities, one list per argument set: `getList({ userId: 1 })` and
 * `getList({ userId: 2 })` are two lists. Its `push`, `unshift` and `addWith` variants add
 * created entities to every stored list whose filter arguments match the call's arguments or
 * body, never twice. Override `nonFilterArgumentKeys` in a subclass to say which arguments
 * (sorting, for example) do not decide membership.
 *
 * @example
 * const todoList = new schema.Collection([Todo]);
 * // POST /todos { userId: 1 } lands at the end of the { userId: 1 } list and of the {} list
 * const create = new RestEndpoint({ path: '/todos', method: 'POST', schema: todoList.push });
 */
export class Collection<S extends readonly [Schema] = readonly [Schema]> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<S[0]>[];
  readonly key: string;
  /** For a collection nested in an entity: the args of its list, from the parent. */
  readonly nestKey: CollectionOptions['nestKey'];
  /** 'list' for the collection itself; the variants add members to stored lists. */
  readonly mode: Mode = 'list';
  readonly mergeMembers: CollectionMerge = appendNew;
  readonly filterFactory: CreateCollectionFilter | undefined = undefined;
  private variants?: Partial<Record<Variant, Collection<S>>>;

  constructor(
    readonly schema: S,
    options: CollectionOptions = {},
  ) {
    if (!Array.isArray(schema) || schema.length !== 1) {
      throw new TypeError(
        `schema.Collection takes a one-member array${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ', e.g. new schema.Collection([Todo])' : ''}`,
      );
    }
    const inner = schema[0] as { key?: unknown };
    const innerKey = typeof inner?.key === 'string' ? inner.key : undefined;
    if (options.key === undefined && innerKey === undefined) {
      throw new TypeError(
        `schema.Collection needs a key option${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ' when its members are not entities' : ''}`,
      );
    }
    this.key = options.key ?? `[${innerKey}]`;
    this.nestKey = options.nestKey;
    // Options become own members, so they win over the prototype's defaults (and a subclass's).
    const nonFilter = options.nonFilterArgumentKeys;
    if (nonFilter !== undefined) {
      const test =
        typeof nonFilter === 'function'
          ? nonFilter
          : nonFilter instanceof RegExp
            ? (key: string) => nonFilter.test(key)
            : (key: string) => nonFilter.includes(key);
      Object.defineProperty(this, 'nonFilterArgumentKeys', { value: test });
    }
    if (options.createCollectionFilter !== undefined) {
      Object.defineProperty(this, 'createCollectionFilter', {
        value: options.createCollectionFilter,
      });
    }
  }

  /** Adds created members at the end of every matching list. */
  get push(): CreatingCollection<S> {
    return this.variant('push') as unknown as CreatingCollection<S>;
  }

  /** Adds created members at the start of every matching list. */
  get unshift(): CreatingCollection<S> {
    return this.variant('unshift') as unknown as CreatingCollection<S>;
  }

  /**
   * Takes the response's entities out of every stored list whose filter their values (with the
   * call's URL params) match; a list that does not hold one is left as it is.
   * @example new RestEndpoint({ path: '/todos/:id/archive', method: 'POST', schema: todoList.remove })
   */
  get remove(): CreatingCollection<S> {
    return this.variant('remove') as unknown as CreatingCollection<S>;
  }

  /**
   * For an update that changes which lists an entity belongs to: afterwards the entity is in
   * exactly the stored lists whose filter its values match (it leaves the others and is appended
   * to those it was missing from), whatever order the answer and pushed updates arrive in. Lists
   * not stored yet are not created.
   * @example new RestEndpoint({ path: '/todos/:id', method: 'PATCH', schema: todoList.move })
   */
  get move(): CreatingCollection<S> {
    return this.variant('move') as unknown as CreatingCollection<S>;
  }

  /**
   * Adds members with your own merge and filter (pagination uses it).
   * @example list.addWith(paginatedMerge, paginatedFilter(removeCursor))
   */
  addWith(merge: CollectionMerge, createCollectionFilter?: CreateCollectionFilter): Collection<S> {
    return this.derive(
      'add',
      (existing, incoming) => withoutDuplicates(merge(existing, incoming)),
      createCollectionFilter,
    );
  }

  /**
   * True for argument keys that do not decide which lists a created member joins.
   * @example class SortedCollection extends schema.Collection { nonFilterArgumentKeys(key) { return key === 'sort'; } }
   */
  nonFilterArgumentKeys(key: string): boolean {
    return key.startsWith('order');
  }

  /**
   * The default filter: every filtering key of a list equals the call's URL param or body member.
   * @example collection.createCollectionFilter({ userId: 1 }, { title: 'x' })({ userId: '1' }) // true
   */
  createCollectionFilter(...args: Args): (listArgs: Record<string, ListArgValue>) => boolean {
    const [params, body] = args;
    return (listArgs) =>
      Object.keys(listArgs).every(
        (key) =>
          this.nonFilterArgumentKeys(key) ||
          matches(params, key, listArgs[key]!) ||
          matches(body, key, listArgs[key]!),
      );
  }

  /** The list id (canonical args) of the list a response belongs to. */
  pk(parent: unknown, key: string | undefined, args: Args): string {
    if (this.nestKey && isObject(parent) && key !== undefined) {
      return canonicalArgs(this.nestKey(parent as Record<string, unknown>, key));
    }
    return canonicalArgs(args[0]);
  }

  /** The `SchemaInstance` step: what of `input` is stored. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown {
    if (this.mode === 'list') {
      if (!Array.isArray(input))
        throw new TypeError(`expected an array for collection ${this.key}, got ${kindOf(input)}`);
      const members = withoutDuplicates(
        present(
          membersOf(this.schema).normalize(
            input,
            parent,
            key,
            args,
            visit,
            undefined!,
          ) as unknown[],
        ),
      );
      const listPk = this.pk(parent, key, args);
      // A list requested before a push into it (a create answered first) does not undo the push.
      delegate.setEntity(this.key, listPk, members as unknown as Record<string, unknown>, true);
      return listPk;
    }
    const many = Array.isArray(input);
    const member = this.schema[0] as { entityFor?(value: object): EntityClass | undefined };
    const { mode } = this;
    const filter = (...call: Args) =>
      this.filterFactory ? this.filterFactory(...call) : this.createCollectionFilter(...call);
    // Membership follows values: after a move each entity is in exactly the stored lists whose
    // filter its values (the call's URL params, the stored fields, the body's and the response's
    // over them)
    // match, and a remove takes it out of those. Nothing compares with the values before this
    // write, so the end state is the same whether a pushed or synced update of the entity landed
    // before the answer or after it. A list filtered by a key the values do not have (a search)
    // cannot be judged by them: false means "not there", undefined "leave it as it is".
    const editing = mode === 'remove' || mode === 'move';
    const tests: ((listArgs: Record<string, ListArgValue>) => boolean | undefined)[] = editing
      ? (many ? input : [input]).map((item: unknown) => {
          if (!isRecord(item)) {
            throw new TypeError(
              `${this.key}.${mode} expected an object, got ${kindOf(item)}${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ' for an entity: its fields decide the lists it is in' : ''}`,
            );
          }
          const entity = isEntityClass(member) ? member : member.entityFor?.(item);
          // Not an entity (a plain member): its fields alone, nothing stored to add to them.
          const fields = entity ? entity.process(item, parent, key, args) : item;
          const stored =
            entity && delegate.getEntity(entity.key, String(entity.pk(fields, parent, key, args)));
          // The body says what the call changed, the answer what the server holds now.
          const values: Record<string, unknown> = {
            ...(args[0] as object),
            ...(stored as object),
            ...(isRecord(args[1]) && args[1]),
            ...fields,
          };
          const test = filter(values, values);
          return (listArgs) =>
            test(listArgs) ||
            (test(
              Object.fromEntries(
                Object.entries(listArgs).filter(([name]) => values[name] !== undefined),
              ),
            )
              ? undefined
              : false);
        })
      : [filter(...args)];
    // One created member is where the collection is (no key of its own), not [0] of a list.
    const normalized = many
      ? (membersOf(this.schema).normalize(input, parent, key, args, visit, undefined!) as unknown[])
      : [visit(member, input, parent, undefined, args)];
    const incoming = present(normalized);
    const lists = delegate.getEntities(this.key) ?? {};
    for (const listPk of Object.keys(lists)) {
      const list = lists[listPk];
      if (list === INVALID || !Array.isArray(list)) continue;
      const listArgs = parseCanonicalArgs(listPk);
      if (listArgs === undefined) continue;
      let next: unknown[] = list;
      tests.forEach((test, i) => {
        const fits = test(listArgs);
        // A create's members all join together; a moved or removed entity by itself.
        if (fits && mode !== 'remove') {
          next = this.mergeMembers(next, editing ? [normalized[i]] : incoming);
        } else if (editing && (mode === 'move' ? fits === false : fits)) {
          const gone = memberKey(normalized[i]);
          next = next.filter((listed) => memberKey(listed) !== gone);
        }
      });
      if (next.length !== list.length || next.some((listed, i) => listed !== list[i])) {
        delegate.setEntity(this.key, listPk, next as unknown as Record<string, unknown>);
      }
    }
    if (this.mode === 'add') {
      // A page lands on its own list even when that list was not fetched first.
      const listPk = this.pk(parent, key, args);
      const existing = delegate.getEntity(this.key, listPk);
      if (existing === undefined || existing === INVALID) {
        delegate.setEntity(
          this.key,
          listPk,
          withoutDuplicates(incoming) as unknown as Record<string, unknown>,
        );
      }
      return listPk;
    }
    return many ? incoming : incoming[0];
  }

  /** The `SchemaInstance` step: the stored value as readers see it. */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    // Lists are read through the store by the denormalizer (see readsList); the push and
    // unshift variants resolve to the created members themselves.
    if (Array.isArray(input)) return input.map((member) => unvisit(this.schema[0], member));
    return unvisit(this.schema[0], input);
  }

  /** True when this schema's normalized value is a list id to be read from the store. */
  get readsList(): boolean {
    return this.mode === 'list' || this.mode === 'add';
  }

  /** The walkers read the list by key and pk (see `SchemaInstance.readsStore`). */
  get readsStore(): boolean {
    return this.readsList;
  }

  /**
   * Every Collection of one member schema reads the same lists (its variants, a Collection nested
   * in an entity, getList's), so they share cached reads: one stored list, one array.
   */
  get storeIdentity(): object {
    return this.schema[0] as object;
  }

  /** A stored list (or one given in its place): its members, INVALID and missing ones left out. */
  denormalizeStored(stored: unknown, unvisit: Unvisit): unknown {
    return membersOf(this.schema).denormalize(stored, [], unvisit);
  }

  walk(value: unknown, walk: WalkStored, read: ReadStored): void {
    if (this.readsList && value !== null && typeof value !== 'object') {
      walk(this.schema, read(this.key, String(value)));
    } else {
      walk(Array.isArray(value) ? this.schema : this.schema[0], value);
    }
  }

  private variant(mode: Variant): Collection<S> {
    this.variants ??= {};
    // A move appends to the lists it joins; remove merges nothing.
    return (this.variants[mode] ??= this.derive(
      mode,
      mode === 'unshift' ? prependNew : appendNew,
      undefined,
    ));
  }

  private derive(
    mode: Mode,
    merge: CollectionMerge,
    filter: CreateCollectionFilter | undefined,
  ): Collection<S> {
    // Object.create keeps the subclass's prototype, so its overrides (nonFilterArgumentKeys…) apply.
    const derived = Object.create(this) as Collection<S>;
    Object.defineProperties(derived, {
      mode: { value: mode },
      mergeMembers: { value: merge },
      filterFactory: { value: filter },
      variants: { value: undefined, writable: true },
    });
    return derived;
  }
}
