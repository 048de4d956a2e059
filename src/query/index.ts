/**
 * `resource-elements/query`: queries over the store. `queryAll(Todo, select)` reads every stored
 * Todo, as `select` filters, sorts or sums it for the read's params, with no request: through
 * `controller.getResponse`, a `ResourceController` or a `ResponseObserver`, like any endpoint. It
 * follows every write (a push, an answer, an optimistic update, a delete) and gives the same
 * object while what it shows is the same. Its own entry, so apps without queries do not carry it.
 * @example
 * import { queryAll } from 'resource-elements/query';
 * const openTodos = queryAll(Todo, (todos, { userId }: { userId: number }) =>
 *   todos.filter((todo) => !todo.completed && todo.userId === userId),
 * );
 * #open = new ResourceController(this, openTodos, () => ({ userId: this.userId }));
 * @module resource-elements/query
 */
export { queryAll } from '../core/query.js';
export type { Query, QueryArgs, QueryOptions } from '../core/query.js';
