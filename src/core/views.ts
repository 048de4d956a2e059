/**
 * Views: what a reader shows of its read (`ReadOptions.view`). Loaded by
 * `resource-elements/views`, so an app that shows its reads as they are does not carry them.
 */
import { jsonEqual } from './normalize/equal.js';
import type { ObservedRead, ReadView } from './controller/response-observer.js';

/**
 * Keeps the last data on screen while the read has none yet (new args loading: a search box, a
 * Next button), marked `previous: true` with status `'complete'`, instead of going back to
 * pending. An error of the read shows as an error.
 * @example
 * new ResourceController(this, TodoResource.getList, () => ({ q: this.query }), { view: keepPrevious });
 */
export function keepPrevious<T>(
  data: T | undefined,
  last: ObservedRead<T, unknown>,
  error: unknown,
): T | undefined {
  return data ?? (error === undefined ? last.data : undefined);
}

/**
 * Shows what `pick` makes of the data (a count, a filter, a grouping). `pick` runs again only
 * when the data is a new object, and a result deeply equal to the last one (as JSON is; entities
 * by identity) keeps the last object, so a reader of a count is not told of a title edit. `then`
 * views the result further (`select(pick, keepPrevious)`). One `select(…)` per reader: it keeps
 * what it last made.
 * @example
 * new ResourceController(this, TodoResource.getList, () => ({}), {
 *   view: select((todos) => todos.filter((todo) => todo.completed).length),
 * });
 */
export function select<R, T>(pick: (data: R) => T, then?: ReadView<T>): ReadView<R, T> {
  let given: R | undefined;
  let made: T | undefined;
  return (data, last, error) => {
    if (data !== undefined && data !== given) {
      const next = pick((given = data));
      // Deeply the same as before: the same object, so nothing that shows it renders again.
      if (made === undefined || !jsonEqual(made, next)) made = next;
    }
    const shown = data === undefined ? undefined : made;
    return then ? then(shown, last, error) : shown;
  };
}
