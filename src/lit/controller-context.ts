import type { Context } from '@lit/context';
import type { ControllerLike } from '../core/index.js';

/**
 * The `@lit/context` key under which `<resource-provider>` provides its Controller. The key is a
 * registered symbol, so two copies of this module (two bundles on one page) still match. Its value
 * type includes `undefined` (a consumer has nothing before a provider answers), so both
 * `controller?: ControllerLike` (experimentalDecorators) and
 * `accessor controller: ControllerLike | undefined` (standard decorators) accept `@consume`.
 * `<resource-provider>` provides a `Controller` (its `controller` property is typed so); the key
 * keeps `ControllerLike` because a standard decorator's accessor must hold a subtype of the key's
 * type, and `accessor controller: ControllerLike | undefined` would no longer be accepted.
 *
 * @example
 * ```ts
 * class TodoToggle extends LitElement {
 *   @consume({ context: controllerContext, subscribe: true })
 *   controller?: ControllerLike;
 *   toggle() {
 *     this.controller?.fetch(TodoResource.partialUpdate, { id: '1' }, { completed: true });
 *   }
 * }
 * ```
 */
// What createContext() would return: the key itself, typed (no import of it needed).
export const controllerContext = Symbol.for('resource-elements.controller') as Context<
  symbol,
  ControllerLike | undefined
>;

/** The type of `controllerContext`. */
export type ControllerContext = typeof controllerContext;
