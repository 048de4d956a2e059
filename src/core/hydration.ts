/**
 * Moving a store between controllers: a server render to the page, storage to a new session,
 * one tab to another. `dehydrate` gives plain JSON-safe data; `hydrate` merges it into a live
 * Controller, where whichever side fetched a response or an entity later wins.
 */
import type { Controller } from './controller/controller.js';
import { checkState } from './store/check-state.js';
export { checkState };
import type { ResponseError, StoreState } from './store/state.js';
import { restoreState } from './store/state.js';
import { reducers } from './store/reducer.js';
import { hydrate as hydrateReducer } from './store/reducers/hydrate.js';

// The store's `hydrate` action works once this module is loaded: the main entry does not carry it.
reducers.hydrate = hydrateReducer;

/** What `dehydrate` gives: a store state that survives `JSON.stringify`. */
export type DehydratedState = StoreState;

/**
 * The controller's committed state as plain data: errors become `{ name, message, status }`
 * (no Response object, nothing a request carried), pending optimistic updates are left out,
 * and `filter` can leave responses out by key.
 * @example
 * const json = JSON.stringify(dehydrate(controller));
 * hydrate(new Controller(), JSON.parse(json));
 */
export function dehydrate(
  controller: Controller,
  filter: (key: string) => boolean = () => true,
): DehydratedState {
  const state = controller.getState();
  const endpoints: Record<string, unknown> = {};
  const meta: Record<string, StoreState['meta'][string]> = {};
  const errors: Record<string, ResponseError> = {};
  for (const key of Object.keys(state.meta)) {
    if (!filter(key)) continue;
    Object.defineProperty(endpoints, key, { value: state.endpoints[key], enumerable: true });
    Object.defineProperty(meta, key, { value: state.meta[key], enumerable: true });
  }
  for (const key of Object.keys(state.errors)) {
    if (!filter(key)) continue;
    const { error, fetchedAt, expiresAt } = state.errors[key]!;
    Object.defineProperty(errors, key, {
      value: { error: plainError(error), fetchedAt, expiresAt },
      enumerable: true,
    });
  }
  return {
    entities: state.entities,
    entitiesMeta: state.entitiesMeta,
    endpoints,
    meta,
    errors,
    optimistic: [],
    lastReset: state.lastReset,
  };
}

/**
 * Merges `state` (from `dehydrate` or `getState`, possibly through JSON) into a live controller:
 * readers see it at once, with no request, and its expiry continues from when it was fetched.
 * A fetch time later than the controller's clock (a server's clock ahead of the browser's) counts
 * as now, so what this controller fetches or writes afterwards is newer. Throws a TypeError
 * naming the first part that is not a store state (`The state at meta["GET /todos"] is not an
 * object.`), changing nothing.
 * @example hydrate(controller, JSON.parse(script.textContent));
 */
export function hydrate(controller: Controller, state: Partial<StoreState>): void {
  checkState(state);
  controller.dispatch({
    type: 'hydrate',
    state: restoreState(state),
    now: controller.now(),
  });
}

function plainError(error: unknown): unknown {
  if (error === null || typeof error !== 'object') return error;
  const { name, message, status } = error as {
    name?: unknown;
    message?: unknown;
    status?: unknown;
  };
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    ...(typeof status === 'number' ? { status } : {}),
  };
}
