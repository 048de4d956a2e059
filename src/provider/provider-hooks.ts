/**
 * The seam through which optional entries add to `<resource-provider>` without their code in the
 * main bundle: `registerProviderManagers()` from `resource-elements/managers` turns its attributes
 * (`events`, `sync-tabs`, `persist`) into managers; importing `resource-elements/hydration` lets
 * it take the store a server rendered into it.
 */
import type { Controller } from '../core/index.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** What the managers entry plugs in. */
export interface ProviderManagersHook {
  /** Makes the provider's Controller when its attributes need one made their way (persist). */
  create(provider: HTMLElement): Controller | undefined;
  /**
   * Attaches what the attributes ask for; returns the function that detaches it. `states` is the
   * provider's CustomStateSet (undefined where the browser has none), for states of their own.
   */
  connect(provider: HTMLElement, controller: Controller, states?: Set<string>): () => void;
}

/**
 * The registered hooks, if any: `managers` from resource-elements/managers, `state` (take the
 * store a server rendered into the provider) from resource-elements/hydration.
 * @example providerHooks.managers = { create: () => undefined, connect: () => () => {} };
 */
export const providerHooks: {
  managers?: ProviderManagersHook;
  /** Takes the text of the provider's state script (removed from the page already). */
  state?: (provider: HTMLElement, controller: Controller, json: string) => void;
} = {};

/**
 * A state script the provider cannot read: resource-elements/hydration is not imported. Its custom
 * elements would hydrate over the server's HTML with no data (Lit throws a hydration mismatch on
 * the page), so each one the server rendered is put back as a new element, which renders and
 * fetches as on a page the server did not render.
 * @example (providerHooks.state ?? unreadState)(provider, controller, script.textContent);
 */
export function unreadState(provider: HTMLElement): void {
  if (DEV()) {
    console.error(
      `<${provider.localName}> has a server-rendered store it cannot read: import 'resource-elements/hydration' in the browser, before the provider upgrades (beside Lit's hydrate support). Its reads are fetched again.`,
    );
  }
  // Not upgraded yet, with the shadow root the server rendered: a deep clone has none (light
  // children are cloned too, so the server's nested elements go the same way).
  for (const element of provider.querySelectorAll(':not(:defined)')) {
    if (element.shadowRoot) element.replaceWith(element.cloneNode(true));
  }
}
