/**
 * `resource-elements/devtools`: `<resource-devtools>`, a panel that shows a Controller's
 * entities, responses, requests in flight and actions. Importing this module defines the element.
 * @module resource-elements/devtools
 */
import { ResourceDevtools } from './resource-devtools.js';

export { ResourceDevtools };

if (!customElements.get('resource-devtools')) {
  customElements.define('resource-devtools', ResourceDevtools);
}
