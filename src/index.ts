/** `resource-elements`: the core plus the Lit layer. */
export * from './core/index.js';
export {
  PendingTaskEvent,
  controllerContext,
  MutationController,
  MutationStatus,
  ResourceController,
  ResourceProvider,
  ResourceStatus,
} from './lit/index.js';
export type {
  ControllerContext,
  ResourceActivity,
  EndpointHook,
  ReadParams,
  ResourceHost,
  ResourceRenderers,
} from './lit/index.js';
