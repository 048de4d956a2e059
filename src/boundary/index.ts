/**
 * `resource-elements/boundary`: `<resource-boundary>`, a loading and error boundary for the
 * reads below it. Importing this module defines the element.
 * @module resource-elements/boundary
 */
import { ResourceBoundary } from './resource-boundary.js';

export { ResourceBoundary };
export { PendingTaskEvent } from '../index.js';

if (!customElements.get('resource-boundary')) {
  customElements.define('resource-boundary', ResourceBoundary);
}
