// The module with the side effect (listed in package.json `sideEffects`, with the entry modules that
// import it): it defines <resource-provider>.
// A second copy of the library on the page finds the name taken and leaves the first definition.
// A server may have no registry yet (Lit's server build installs one when imported):
// resource-elements/ssr defines the provider there.
import { ResourceProvider } from './resource-provider.js';

if (!globalThis.customElements?.get('resource-provider')) {
  globalThis.customElements?.define('resource-provider', ResourceProvider);
}
