import { Controller } from '../core/index.js';
import type { ControllerLike } from '../core/index.js';

/**
 * Makes the Controller a `<resource-provider>` owns when none was assigned to it.
 *
 * @example
 * ```ts
 * const controller = createController();
 * ```
 */
export function createController(): ControllerLike {
  return new Controller();
}
