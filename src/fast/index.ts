/**
 * `resource-elements/fast`: reads and mutations for FAST elements (`@microsoft/fast-element` 3, an
 * optional peer). `readResource` and `mutateResource` attach to a `FASTElement` as host
 * behaviors: they bind through the nearest `<resource-provider>` when it connects and let go when
 * it disconnects, and their `status`, `value` and `error` are FAST observables a template binds
 * to. Its own entry: an app without FAST pays nothing for it.
 * @example
 * import { mutateResource, readResource } from 'resource-elements/fast';
 * class TodoList extends FASTElement {
 *   readonly todos = readResource(this, TodoResource.getList, () => ({ userId: 1 }));
 *   readonly remove = mutateResource(this, TodoResource.delete);
 * }
 * @module resource-elements/fast
 */
export { readResource } from './read-resource.js';
export type { ResourceRead } from './read-resource.js';
export { mutateResource } from './mutate-resource.js';
export type { ResourceMutation } from './mutate-resource.js';
