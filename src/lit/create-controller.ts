import type { ControllerLike } from '../core/controller/types.js';

/**
 * Makes the Controller a `<resource-provider>` owns when none was assigned to it.
 *
 * @example
 * ```ts
 * const controller = createController();
 * ```
 */
export function createController(): ControllerLike {
  // Replaced by `new Controller()` once src/core/controller/controller.ts lands.
  throw new Error(
    'resource-elements: no Controller implementation yet; assign one to <resource-provider>.controller.',
  );
}
