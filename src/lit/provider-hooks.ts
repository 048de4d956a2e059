/**
 * The seam through which optional entries add to `<resource-provider>` without their code in the
 * main bundle: `registerProviderManagers()` from `resource-elements/managers` turns its attributes
 * (`events`, `sync-tabs`, `persist`) into managers; importing `resource-elements/hydration` lets
 * it take the store a server rendered into it.
 */
import type { ControllerLike } from '../core/index.js';

/** What the managers entry plugs in. */
export interface ProviderManagersHook {
  /** Makes the provider's Controller when its attributes need one made their way (persist). */
  create(provider: HTMLElement): ControllerLike | undefined;
  /**
   * Attaches what the attributes ask for; returns the function that detaches it. `states` is the
   * provider's CustomStateSet (undefined where the browser has none), for states of their own.
   */
  connect(provider: HTMLElement, controller: ControllerLike, states?: Set<string>): () => void;
}

/**
 * The registered hooks, if any: `managers` from resource-elements/managers, `state` (take the
 * store a server rendered into the provider) from resource-elements/hydration.
 * @example providerHooks.managers = { create: () => undefined, connect: () => () => {} };
 */
export const providerHooks: {
  managers?: ProviderManagersHook;
  state?: (provider: HTMLElement, controller: ControllerLike) => void;
} = {};

/**
 * Called by the provider when it connects: attaches the managers its attributes name, or says
 * clearly why it cannot. `registerProviderManagers()` may also run later in the same task (a
 * module evaluated after the one that defined the provider): the hook is looked for again then.
 * @example this.#detachManagers = connectManagers(this, this.controller);
 */
export function connectManagers(
  provider: HTMLElement,
  controller: ControllerLike,
  states?: Set<string>,
): () => void {
  let detach: (() => void) | undefined;
  let connected = true;
  const attach = () => {
    if (providerHooks.managers)
      detach = providerHooks.managers.connect(provider, controller, states);
    else if (provider.matches('[events],[sync-tabs],[persist],[offline-queue]')) {
      console.error(
        `<${provider.localName}> needs registerProviderManagers() from 'resource-elements/managers'${
          typeof process !== 'undefined' && process.env.NODE_ENV !== 'production'
            ? ' for events, sync-tabs, persist and offline-queue, called before the provider connects'
            : ''
        }.`,
      );
    }
  };
  if (providerHooks.managers) attach();
  else queueMicrotask(() => connected && attach());
  return () => {
    connected = false;
    detach?.();
  };
}
