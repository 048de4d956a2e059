/**
 * `resource-elements/views`: what a reader shows of its read, given as the `view` option of
 * `ResourceController` or `ResponseObserver`. `keepPrevious` keeps the last data on screen while
 * new args load; `select(pick)` shows what `pick` makes of the data and tells the reader only when
 * that changes. Its own entry: an app that shows its reads as they are does not carry it.
 * @example
 * import { keepPrevious, select } from 'resource-elements/views';
 * #results = new ResourceController(this, TodoResource.getList, () => ({ q: this.query }), {
 *   view: keepPrevious,
 * });
 * #done = new ResourceController(this, TodoResource.getList, () => ({}), {
 *   view: select((todos) => todos.filter((todo) => todo.completed).length),
 * });
 * @module resource-elements/views
 */
export { keepPrevious, select } from '../core/views.js';
