/**
 * `resource-elements/follow`: lists that follow their filters under any update. `followFilters`
 * names a Collection (or a resource's), and from then on a committed write of one of its entities
 * (a push, another tab, an answer, `setResponse`, an optimistic update) moves it between the
 * stored lists its values match, as `move` does. Its own entry, so apps that do not turn it on do
 * not carry it.
 * @example
 * import { followFilters } from 'resource-elements/follow';
 * export const TodoResource = followFilters(
 *   createResource({ path: '/api/todos/:id', schema: Todo, searchParams: {} as { completed?: boolean } }),
 * );
 * @module resource-elements/follow
 */
export { followFilters } from '../core/follow.js';
export type { Followable } from '../core/follow.js';
