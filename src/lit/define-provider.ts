// The one module with a side effect (package.json `sideEffects`): it defines <resource-provider>.
// A second copy of the library on the page finds the name taken and leaves the first definition.
import { ResourceProvider } from './resource-provider.js';

if (!customElements.get('resource-provider')) {
  customElements.define('resource-provider', ResourceProvider);
}
