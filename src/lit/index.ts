/**
 * The Lit layer of resource-elements: `<resource-provider>`, `ResourceController` and the context
 * key through which elements reach the Controller.
 */
// Importing the Lit layer defines <resource-provider> (define-provider.js). package.json
// `sideEffects` lists this module, dist/index.js and define-provider, so a bare
// `import 'resource-elements'` survives tree-shaking. The values stand in the order that packs the
// main bundle best (see src/core/index.ts); the types follow.
export { controllerContext } from './controller-context.js';
export { ResourceProvider } from './resource-provider.js';
export { PendingTaskEvent } from './pending-task.js';
import './define-provider.js';
export { ResourceController, ResourceStatus } from './resource-controller.js';
export { MutationController, MutationStatus } from './mutation-controller.js';
export type { ControllerContext } from './controller-context.js';
export type { ResourceActivity } from './resource-provider.js';
export type {
  EndpointHook,
  ReadParams,
  ResourceHost,
  ResourceRenderers,
} from './resource-controller.js';
