/**
 * Lists that follow their filters. Once `followFilters` names a Collection, every committed write
 * of one of its entities (a pushed `controller.set`, a synced tab, an answer, `setResponse`, an
 * optimistic update replayed) re-files it among the stored lists of that Collection by the rule
 * `move` uses: it is appended to the lists its values match and leaves those they do not, and a
 * list filtered by an argument the entity has no field for keeps it as it is. Nothing compares
 * with the values before the write, so the end state does not depend on the order the writes
 * arrive in. Loaded by `resource-elements/follow`: an app that follows nothing does not carry it,
 * and the store's reducers are its own until a Collection is followed.
 */
import { reducers } from './store/reducer.js';
import type { Reducer } from './store/reducer.js';
import type { Action } from './store/actions.js';
import type { StoreState } from './store/state.js';
import { Writer } from './normalize/writer.js';
import { Collection } from './schema/collection.js';
import { withCollection } from './schema/pagination.js';
import { parseCanonicalArgs } from './schema/list-key.js';
import type { ListArgValue } from './schema/list-key.js';
import { isEntityClass, isObject, isRecord } from './schema/is.js';
import { entry, getOwn, once } from './util/own.js';
import { kindOf } from './util/describe.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

type Fields = Record<string, unknown>;
type ListArgs = Record<string, ListArgValue>;
/** true: the list takes the entity; false: it must not hold it; undefined: leave it as it is. */
type Fit = (listArgs: ListArgs) => boolean | undefined;

/** The followed Collections (one per list key: the lists are stored by it), by member entity key. */
const followed = new Map<string, Map<string, Collection>>();
/** Whether the reducers that write entities are `refile`'s yet. */
let plugged = false;

/**
 * Whether an entity with `values` belongs in a list, by `collection`'s filter: as `move` judges.
 * A list whose filter names a field `values` lack is judged by the fields they have: a mismatch
 * there is still false, otherwise it cannot say (a search `q`, the page of a page read).
 */
function fit(collection: Collection, values: Fields): Fit {
  const test = collection.createCollectionFilter(values, values);
  return (listArgs) => {
    if (test(listArgs)) return true;
    const known: ListArgs = {};
    for (const name in listArgs) {
      if (getOwn(values, name) !== undefined) known[name] = listArgs[name]!;
    }
    return test(known) ? undefined : false;
  };
}

/**
 * `reducer`, then each entity of a followed Collection it wrote re-filed among the stored lists
 * that reduction did not write itself (an answer, a push, a move already decided those). In a
 * list it did write, a member whose stored values are newer than the list (a push that landed
 * while the list's request was on its way) leaves it when they no longer match.
 */
function refile(
  reducer: Reducer<Action['type']>,
  state: StoreState,
  action: Action,
  given: Writer,
): StoreState {
  // The log says what the reduction wrote; a writer is made with one when the store asked none.
  const writer = given.log ? given : new Writer(given.owned, new Map());
  state = reducer(state, action, writer);
  const log = writer.log!;
  let { entities } = state;
  try {
    for (const [entityKey, lists] of followed) {
      const table = getOwn(entities, entityKey);
      const written = table && log.get(table);
      for (const [listKey, collection] of lists) {
        const stored = getOwn(entities, listKey);
        const answered = stored && log.get(stored);
        if (!stored || !(written || answered)) continue;
        let listTable: Record<string, unknown> = stored;
        const judged: [string, Fit][] = [];
        for (const pk of written ?? []) {
          const values = getOwn(table!, pk);
          if (isRecord(values)) judged.push([pk, fit(collection, values)]);
        }
        const metaOf = (key: string, pk: string) =>
          getOwn(getOwn(state.entitiesMeta, key) ?? {}, pk)?.fetchedAt ?? -Infinity;
        for (const listPk of Object.keys(listTable)) {
          const list = listTable[listPk];
          const listArgs = Array.isArray(list) && parseCanonicalArgs(listPk);
          if (!listArgs) continue;
          let next = list as unknown[];
          if (answered?.has(listPk)) {
            const listAt = metaOf(listKey, listPk);
            next = next.filter((pk) => {
              const values = typeof pk === 'string' && getOwn(table ?? {}, pk);
              return !(
                isRecord(values) &&
                metaOf(entityKey, pk as string) > listAt &&
                fit(collection, values)(listArgs) === false
              );
            });
          } else {
            // Many written entities (an answer of a whole list): one Set of the members.
            const members = judged.length > 8 ? new Set(next) : next;
            const has = (pk: string) =>
              members instanceof Set ? members.has(pk) : members.includes(pk);
            for (const [pk, fits] of judged) {
              const verdict = fits(listArgs);
              if (verdict && !has(pk)) next = next.concat(pk);
              else if (verdict === false && has(pk)) next = next.filter((member) => member !== pk);
            }
          }
          if (next.length !== (list as unknown[]).length) {
            const copy = writer.set(listTable, listPk, next);
            if (copy !== listTable)
              entities = writer.set(entities, listKey, (listTable = copy) as never);
          }
        }
      }
    }
  } catch (error) {
    // A filter of the app's own that throws: nothing of this reduction stays.
    writer.undo();
    throw error;
  }
  return entities === state.entities ? state : { ...state, entities };
}

/** What `followFilters` takes: a Collection, a resource, or an endpoint whose schema holds one. */
export type Followable =
  | Collection
  | { readonly getList: { readonly schema?: unknown } }
  | {
      readonly schema?: unknown;
    };

/**
 * Makes the stored lists of a Collection follow their filters under any update: from now on,
 * whenever a committed change (a pushed `controller.set`, another tab's write, an answer,
 * `setResponse`, an optimistic update) writes one of its entities, the entity leaves the lists
 * its values no longer match and is appended to those they now match, as `move` re-files it. A
 * list filtered by an argument the entity has no field for (a search, a page read) keeps it as it
 * is. Takes the Collection, a resource (its `getList`'s Collection) or an endpoint whose schema
 * holds one, and gives it back; the lists stored under that Collection's key follow in every
 * Controller, by its filter (`nonFilterArgumentKeys`, `createCollectionFilter`).
 * @example
 * import { followFilters } from 'resource-elements/follow';
 * export const TodoResource = followFilters(
 *   createResource({ path: '/api/todos/:id', schema: Todo, searchParams: {} as { completed?: boolean } }),
 * );
 * // controller.set(Todo, { id: 1, completed: true }) moves todo 1 from
 * // getList({ completed: false }) to getList({ completed: true }), with no request.
 */
export function followFilters<T extends Followable>(target: T): T {
  const holder = target as { getList?: { schema?: unknown }; schema?: unknown } | undefined;
  let found: Collection | undefined;
  if (target instanceof Collection) found = target;
  else if (isObject(holder) || typeof holder === 'function') {
    withCollection(holder.getList ? holder.getList.schema : holder.schema, (collection) => {
      found = collection;
    });
  }
  if (!found) {
    throw new TypeError(
      `followFilters got ${kindOf(target)}, which holds no schema.Collection${DEV() ? ': give it a Collection, a resource from createResource (its getList), or an endpoint whose schema holds one' : ''}.`,
    );
  }
  // A variant (`push`, a page's `addWith`) follows as the Collection it was made from.
  while (found.mode !== 'list') found = Object.getPrototypeOf(found) as Collection;
  const member = found.schema[0];
  if (!isEntityClass(member)) {
    throw new TypeError(
      `followFilters: the lists of ${found.key} hold ${kindOf(member)}, not an Entity class${DEV() ? ': only entities have stored values to follow (a Union is not supported yet)' : ''}.`,
    );
  }
  entry(followed, member.key, Map).set(found.key, found);
  if (!plugged) {
    plugged = true;
    // The reducers that write entities, each run inside `refile` (one wrapper per reducer).
    const around = once(
      (reducer: Reducer<Action['type']>) => (state: StoreState, action: Action, writer: Writer) =>
        refile(reducer, state, action, writer),
    );
    for (const type of ['response/set', 'entities/set'] as const) {
      reducers[type] = around(reducers[type] as Reducer<Action['type']>);
    }
    // `hydrate` is set when resource-elements/hydration loads, before this or after: whatever is
    // set there runs inside `refile` too.
    let hydrate = reducers.hydrate as Reducer<Action['type']> | undefined;
    Object.defineProperty(reducers, 'hydrate', {
      get: () => hydrate && around(hydrate),
      set: (reducer: Reducer<Action['type']>) => void (hydrate = reducer),
      enumerable: true,
    });
  }
  return target;
}
