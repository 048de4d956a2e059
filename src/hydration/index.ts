/**
 * `resource-elements/hydration`: moving a store between controllers, kept out of the main entry
 * since most apps never do it. `dehydrate` gives a Controller's store as JSON-safe data and
 * `hydrate` merges such data into a live one (a server render, storage, another tab), after
 * `checkState`, the shape check, found it is a store state.
 *
 * Importing this module also lets `<resource-provider>` take the store a server rendered into it
 * (`stateScript` of resource-elements/ssr): import it in the browser before the provider upgrades,
 * beside Lit's hydrate support (it imports no Lit).
 * @example
 * import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
 * import 'resource-elements/hydration';
 * @module resource-elements/hydration
 */
import type { StoreState } from '../core/index.js';
import { hydrate } from '../core/hydration.js';
import { providerHooks } from '../provider/provider-hooks.js';

export { checkState, dehydrate, hydrate } from '../core/hydration.js';
export type { DehydratedState } from '../core/hydration.js';

/**
 * The provider takes its state script before any descendant reads: their first render, which Lit
 * hydrates over the server's HTML, shows the same data, and nothing is fetched for it. The script
 * is removed once read. The server's errors are shown as it rendered them, then fetched again.
 */
providerHooks.state = (provider, controller, json) => {
  try {
    const state: Partial<StoreState> = JSON.parse(json);
    const keys = Object.keys(state.errors ?? {});
    hydrate(controller, state);
    // After the descendants' first render (they hydrate in microtasks), not before it.
    setTimeout(() => controller.dispatch({ type: 'invalidate', keys }));
  } catch (error) {
    // Nothing was taken: the reads below fetch as on a page the server did not render.
    console.error(`<${provider.localName}> ignored its state script:`, error);
  }
};
