/**
 * A manager adds behaviour to a Controller from outside it: it reads `controller.events`, calls
 * the Controller's methods (which may dispatch), and gives back the function that detaches it.
 * Polling, garbage collection and connectivity are managers; so is a user's logger.
 */
import { connectivityManager } from '../managers/connectivity.js';
import { pollingManager } from '../managers/polling.js';
import { gcManager } from '../managers/gc.js';
import type { Controller } from './controller.js';
import type { ControllerOptions } from './types.js';

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

/**
 * Attaches the built-in managers (polling, connectivity, and GC for a finite `gcTime`, 5 minutes
 * by default), then the `managers` option's; returns the functions that detach them. When one
 * throws, what attached before it is detached again: nobody will hold the Controller to
 * dispose it. The defaults live here, not in the provider: a Controller made by hand behaves as
 * one made by <resource-provider>, and `managers` only adds.
 */
export function attachManagers(
  controller: Controller,
  { gcTime = 5 * 60_000, managers = [] }: ControllerOptions,
): (() => void)[] {
  const detach: (() => void)[] = [];
  try {
    for (const manager of [
      pollingManager,
      connectivityManager,
      ...(Number.isFinite(gcTime) ? [gcManager(gcTime)] : []),
      ...managers,
    ]) {
      detach.push(manager.attach(controller));
    }
  } catch (error) {
    for (const stop of detach) stop();
    throw error;
  }
  return detach;
}
