/**
 * The Lit layer of resource-elements: `<resource-provider>`, `ResourceController` and the context
 * key through which elements reach the Controller.
 */
// Importing the Lit layer defines <resource-provider>; bundlers keep this import because
// package.json lists define-provider as the one module with side effects.
import './define-provider.js';

export { controllerContext } from './controller-context.js';
export type { ControllerContext } from './controller-context.js';
export { ResourceProvider } from './resource-provider.js';
export { PendingTaskEvent } from './pending-task.js';
export { ResourceController, ResourceStatus } from './resource-controller.js';
export type {
  EndpointHook,
  ReadParams,
  ResourceHost,
  ResourceRenderers,
} from './resource-controller.js';
