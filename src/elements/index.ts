/**
 * `resource-elements/elements`: the Lit-free way into resource-elements for any custom element.
 * `ResourceHostMixin(HTMLElement)` makes an element a host for `ResourceController`,
 * `MutationController` and `InfiniteController` (Lit's `ReactiveControllerHost` contract, with a
 * `render()` hook); `bindRead` and `bindMutation` bind a read or a mutation to an element with no
 * host at all, through a callback. Neither imports Lit itself.
 * @example
 * import { bindRead } from 'resource-elements/elements';
 * const binding = bindRead(element, TodoResource.get, { id: '1' }, (state) => show(state));
 * @module resource-elements/elements
 */
export { ResourceHostMixin } from './resource-host.js';
export type { ResourceHostElement } from './resource-host.js';
export { bindMutation, bindRead } from './bind.js';
export type { MutationBinding, MutationState, ReadBinding, BoundReadState } from './bind.js';
