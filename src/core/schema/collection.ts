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
import { canonicalArgs, canonicalValue, parseCanonicalArgs } from './list-key.js';
import type { ListArgValue } from './list-key.js';
import { getOwn } from '../util/own.js';
import { kindOf } from '../util/describe.js';
import { isEntityClass, isObject, isRecord } from './is.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

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

/** The collection itself, an `addWith` variant, or one of the variants made by name. */
type Mode = 'list' | 'add' | Variant;
type Variant = (typeof variants)[number];
const variants = ['push', 'unshift', 'remove', 'move'] as const;

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

/** A list member's identity: a pk as it is, anything else (a Union's `{ id, schema }`) as JSON. */
const memberKey = (member: unknown): string =>
  typeof member === 'string' ? member : JSON.stringify(member);

/** The list's args that `keep` keeps: the filter a call's values can judge. */
const some = (listArgs: Record<string, ListArgValue>, keep: (name: string) => unknown) =>
  Object.fromEntries(Object.entries(listArgs).filter(([name]) => keep(name)));

/**
 * A new array: `existing` with the incoming members it lacks added (at its end, or with `atStart`
 * before it), never one twice. One Set of the existing members, nothing allocated per member.
 * @example addNew(['1', '2'], ['2', '3'], true) // ['3', '1', '2']
 */
export function addNew(
  existing: readonly unknown[],
  incoming: readonly unknown[],
  atStart?: boolean,
): unknown[] {
  const seen = new Set(existing.map(memberKey));
  const fresh = incoming.filter((member) => {
    const id = memberKey(member);
    return !seen.has(id) && !!seen.add(id);
  });
  return fresh.length ? (atStart ? fresh.concat(existing) : existing.concat(fresh)) : [...existing];
}

/**
 * Lists of entities, one list per argument set: `getList({ userId: 1 })` and
 * `getList({ userId: 2 })` are two lists. Its `push` and `unshift` variants add each created
 * entity to every stored list whose filter arguments match its values (the answer's fields, the
 * call's URL params and body filling in what it lacks), never twice; `addWith`'s variant adds by
 * its own filter. Override `nonFilterArgumentKeys` in a subclass to say which arguments
 * (sorting, for example) do not decide membership.
 *
 * @example
 * const todoList = new schema.Collection([Todo]);
 * // POST /todos { userId: 1 } lands at the end of the { userId: 1 } list and of the {} list
 * const create = new RestEndpoint({ path: '/todos', method: 'POST', schema: todoList.push });
 */
export class Collection<S extends readonly [Schema] = readonly [Schema]> implements SchemaInstance {
  declare readonly _denormalized?: Denormalize<S[0]>[];
  /**
   * Adds created members at the end of every matching list.
   * @example new RestEndpoint({ path: '/todos', method: 'POST', schema: todoList.push })
   */
  declare readonly push: CreatingCollection<S>;
  /**
   * Adds created members at the start of every matching list.
   * @example new RestEndpoint({ path: '/todos', method: 'POST', schema: todoList.unshift })
   */
  declare readonly unshift: CreatingCollection<S>;
  /**
   * Takes the response's entities out of every stored list whose filter their values (with the
   * call's URL params) match, or that the call's URL params do not rule out (`{ userId: 1 }`:
   * every list of user 1); a list that does not hold one is left as it is.
   * @example new RestEndpoint({ path: '/todos/:id/archive', method: 'POST', schema: todoList.remove })
   */
  declare readonly remove: CreatingCollection<S>;
  /**
   * For an update that changes which lists an entity belongs to: afterwards the entity is in
   * exactly the stored lists whose filter its values match (it leaves the others and is appended
   * to those it was missing from), whatever order the answer and pushed updates arrive in. Lists
   * not stored yet are not created.
   * @example new RestEndpoint({ path: '/todos/:id', method: 'PATCH', schema: todoList.move })
   */
  declare readonly move: CreatingCollection<S>;
  /** An `addWith` variant's merge. */
  declare readonly merge?: CollectionMerge;
  /** The variants made from this one, by name (own to each collection and variant). */
  declare private variants?: Partial<Record<Variant, Collection<S>>>;
  readonly key: string;
  /** For a collection nested in an entity: the args of its list, from the parent. */
  readonly nestKey: CollectionOptions['nestKey'];
  /** 'list' for the collection itself; the variants add members to stored lists. */
  readonly mode: Mode = 'list';
  /**
   * The walkers read the list by key and pk (see `SchemaInstance.readsStore`): true for the list
   * and addWith's variant, false for those that resolve to the created members.
   */
  readonly readsStore: boolean = true;
  /**
   * Every Collection of one member schema reads the same lists (its variants, a Collection nested
   * in an entity, getList's), so they share cached reads: one stored list, one array.
   */
  readonly storeIdentity: object;

  constructor(
    readonly schema: S,
    { key, nestKey, nonFilterArgumentKeys: keys, createCollectionFilter }: CollectionOptions = {},
  ) {
    if (!Array.isArray(schema) || schema.length !== 1) {
      throw new TypeError(
        `schema.Collection takes a one-member array${DEV() ? ', e.g. new schema.Collection([Todo])' : ''}`,
      );
    }
    const entityKey = (schema[0] as { key?: unknown } | undefined)?.key;
    // A check of the programmer's own misuse: development only.
    if (DEV() && key === undefined && typeof entityKey !== 'string') {
      throw new TypeError('schema.Collection needs a key option when its members are not entities');
    }
    this.key = key ?? `[${entityKey}]`;
    this.nestKey = nestKey;
    this.storeIdentity = schema[0] as object;
    // Options become own members, so they win over the prototype's defaults (and a subclass's).
    if (keys) {
      this.nonFilterArgumentKeys =
        typeof keys === 'function'
          ? keys
          : (name) => (keys instanceof RegExp ? keys.test(name) : keys.includes(name));
    }
    if (createCollectionFilter) this.createCollectionFilter = createCollectionFilter;
  }

  /**
   * Adds members with your own merge and filter (pagination uses it).
   * @example list.addWith(paginatedMerge, paginatedFilter(removeCursor))
   */
  addWith(merge: CollectionMerge, createCollectionFilter?: CreateCollectionFilter): Collection<S> {
    return this.derive('add', merge, createCollectionFilter);
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
  createCollectionFilter(
    ...[params, body]: Args
  ): (listArgs: Record<string, ListArgValue>) => boolean {
    return (listArgs) =>
      Object.keys(listArgs).every(
        (key) =>
          this.nonFilterArgumentKeys(key) ||
          [params, body].some((source) => {
            const value = isObject(source)
              ? getOwn(source as Record<string, unknown>, key)
              : undefined;
            return value !== undefined && canonicalValue(value) === canonicalValue(listArgs[key]);
          }),
      );
  }

  /**
   * The list id (canonical args) of the list a response belongs to.
   * @example todoList.pk(undefined, undefined, [{ userId: 1 }]) // '{"userId":"1"}'
   */
  pk(parent: unknown, key: string | undefined, args: Args): string {
    return canonicalArgs(
      this.nestKey && isObject(parent) && key !== undefined
        ? this.nestKey(parent as Record<string, unknown>, key)
        : args[0],
    );
  }

  /** The `SchemaInstance` step: a list's id (its members stored), or the created members. */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown {
    const { mode, schema, key: listKey } = this;
    const many = Array.isArray(input);
    if (mode === 'list' && !many) {
      throw new TypeError(`expected an array for collection ${listKey}, got ${kindOf(input)}`);
    }
    const editing = mode === 'remove' || mode === 'move';
    const params = (isRecord(args[0]) ? args[0] : {}) as Record<string, unknown>;
    // Membership follows values: after a move each entity is in exactly the stored lists whose
    // filter its values (the call's URL params, the stored fields, the body's and the response's
    // over them) match, and a remove takes it out of those. Nothing compares with the values
    // before this write, so the end state is the same whether a pushed or synced update of the
    // entity landed before the answer or after it. A list filtered by a key the values do not
    // have (a search) cannot be judged by them: false means "not there", undefined "leave it as
    // it is". Judged before the members are stored, so a bad one changes nothing.
    // A create too: the answer's fields (a default status, the author the server set) decide
    // which lists it joins, the call's params and body filling in what it lacks.
    const tests: ((listArgs: Record<string, ListArgValue>) => boolean | undefined)[] =
      mode !== 'list' && mode !== 'add'
        ? (many ? input : [input]).map((item: unknown) => {
            if (!isRecord(item)) {
              // A create answered with a bare id: the call's args alone.
              if (!editing) return this.createCollectionFilter(...args);
              throw new TypeError(
                `${listKey}.${mode} expected an object, got ${kindOf(item)}${DEV() ? ' for an entity: its fields decide the lists it is in' : ''}`,
              );
            }
            const member = schema[0] as { entityFor?(value: object): EntityClass | undefined };
            const entity = isEntityClass(member) ? member : member.entityFor?.(item);
            // Not an entity (a plain member): its fields alone, nothing stored to add to them.
            const fields = entity ? entity.process(item, parent, key, args) : item;
            // The body says what the call changed, the answer what the server holds now.
            const values: Record<string, unknown> = {
              ...(args[0] as object),
              ...(entity &&
                (delegate.getEntity(
                  entity.key,
                  String(entity.pk(fields, parent, key, args)),
                ) as object)),
              ...(isRecord(args[1]) && args[1]),
              ...fields,
            };
            const test = this.createCollectionFilter(values, values);
            return (listArgs) =>
              test(listArgs) ||
              // A remove also reaches every list its URL params do not rule out (`{ userId: 1 }`:
              // each of user 1's lists), whatever the values say by now (a pushed update).
              (mode === 'remove' &&
                this.createCollectionFilter(
                  params,
                  params,
                )(some(listArgs, (name) => getOwn(params, name) !== undefined))) ||
              (test(some(listArgs, (name) => values[name] !== undefined)) ? undefined : false);
          })
        : mode === 'list'
          ? []
          : [this.createCollectionFilter(...args)];
    // One created member is where the collection is (no key of its own), not [0] of a list.
    const normalized = many
      ? ((stepsOf(schema) as SchemaInstance).normalize(
          input,
          parent,
          key,
          args,
          visit,
          delegate,
        ) as unknown[])
      : [visit(schema[0], input, parent, undefined, args)];
    const incoming = present(normalized);
    const lists = (tests.length && delegate.getEntities(listKey)) || {};
    for (const listPk of Object.keys(lists)) {
      const list = lists[listPk];
      const listArgs = Array.isArray(list) && parseCanonicalArgs(listPk);
      if (!listArgs) continue;
      let next = list as unknown[];
      for (let i = 0; i < tests.length; i++) {
        const fits = tests[i]!(listArgs);
        // A create's members all join together; a moved or removed entity by itself.
        if (fits && mode !== 'remove') {
          const members = mode === 'add' ? incoming : [normalized[i]];
          next = this.merge
            ? addNew([], this.merge(next, members))
            : addNew(next, members, mode === 'unshift');
        } else if (editing && (mode === 'move' ? fits === false : fits)) {
          const gone = memberKey(normalized[i]);
          next = next.filter((listed) => memberKey(listed) !== gone);
        }
      }
      if (
        next.length !== (list as unknown[]).length ||
        next.some((listed, i) => listed !== (list as unknown[])[i])
      ) {
        delegate.setEntity(listKey, listPk, next as never);
      }
    }
    if (!this.readsStore) return many ? incoming : incoming[0];
    const listPk = this.pk(parent, key, args);
    const stored = delegate.getEntity(listKey, listPk);
    // A list requested before a push into it (a create answered first) does not undo the push;
    // a page lands on its own list even when that list was not fetched first.
    if (mode === 'list' || stored === undefined || stored === INVALID) {
      delegate.setEntity(listKey, listPk, addNew([], incoming) as never, mode === 'list');
    }
    return listPk;
  }

  /** The `SchemaInstance` step: the created members (lists are read through `denormalizeStored`). */
  denormalize(input: unknown, _args: Args, unvisit: Unvisit): unknown {
    return unvisit(Array.isArray(input) ? this.schema : this.schema[0], input);
  }

  /** A stored list (or one given in its place): its members, INVALID and missing ones left out. */
  denormalizeStored(stored: unknown, unvisit: Unvisit): unknown {
    return unvisit(this.schema, stored);
  }

  walk(value: unknown, walk: WalkStored, read: ReadStored): void {
    if (this.readsStore && !isObject(value)) walk(this.schema, read(this.key, String(value)));
    else walk(Array.isArray(value) ? this.schema : this.schema[0], value);
  }

  /** A variant: this collection (its subclass's prototype, its options) in another mode. */
  private derive(
    mode: Mode,
    merge?: CollectionMerge,
    filter?: CreateCollectionFilter,
  ): Collection<S> {
    return Object.assign(Object.create(this) as Collection<S>, {
      mode,
      merge,
      readsStore: mode === 'add',
      variants: undefined,
      ...(filter && { createCollectionFilter: filter }),
    });
  }
}

// The variants by name: made on first use, then the same object.
for (const mode of variants) {
  Object.defineProperty(Collection.prototype, mode, {
    get(this: { variants?: Record<string, Collection>; derive(mode: Mode): Collection }) {
      return ((this.variants ??= {})[mode] ??= this.derive(mode));
    },
  });
}
