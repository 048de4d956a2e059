/**
 * `resource-elements`: the Lit layer (`<resource-provider>`, `ResourceController`,
 * `MutationController`) and everything of
 * {@link "resource-elements/core" | resource-elements/core}, which it re-exports and which is
 * documented there. Importing it defines `<resource-provider>`.
 * @module resource-elements
 */
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
