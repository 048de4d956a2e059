/** `resource-elements`: the core plus the Lit layer. */
export * from './core/index.js';
export {
  PendingTaskEvent,
  controllerContext,
  ResourceController,
  ResourceProvider,
  ResourceStatus,
} from './lit/index.js';
export type {
  ControllerContext,
  EndpointHook,
  ReadParams,
  ResourceHost,
  ResourceRenderers,
} from './lit/index.js';
