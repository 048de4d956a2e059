// The module with the side effect (listed in package.json `sideEffects`, with the entry modules that
// import it): it defines <resource-provider>.
// A second copy of the library on the page finds the name taken and leaves the first definition.
import { ResourceProvider } from './resource-provider.js';

if (!customElements.get('resource-provider')) {
  customElements.define('resource-provider', ResourceProvider);
}
