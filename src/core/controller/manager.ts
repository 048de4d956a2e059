/**
 * A manager adds behaviour to a Controller from outside it: it reads `controller.events`, calls
 * the Controller's methods (which may dispatch), and gives back the function that detaches it.
 * Polling, garbage collection and connectivity are managers; so is a user's logger.
 */
import type { Controller } from './controller.js';

/**
 * @example
 * const logger: Manager = {
 *   attach: (controller) =>
 *     controller.events.subscribe((event) => {
 *       if (event.type === 'action') console.log(event.action.type);
 *     }),
 * };
 * new Controller({ managers: [logger] });
 */
export interface Manager {
  /** Starts work on `controller`; returns the function that stops it (called on `dispose()`). */
  attach(controller: Controller): () => void;
}
