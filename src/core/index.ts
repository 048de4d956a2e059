/**
 * `resource-elements/core`: the DOM-free part of resource-elements. It runs in Node and in any
 * browser; nothing here imports Lit or touches the DOM.
 * @module resource-elements/core
 */
export { fillPath, parsePath, pathParams, shortenPath } from './rest/path.js';
export type { PathArgs, PathKeys, PathParam, PathToken, PathValue } from './rest/path.js';
export { Entity } from './schema/entity.js';
export * as schema from './schema/namespace.js';
export type {
  CollectionMerge,
  CollectionOptions,
  CreateCollectionFilter,
} from './schema/collection.js';
export { INVALID } from './schema/types.js';
export type {
  Args,
  Denormalize,
  EntityClass,
  EntityMeta,
  EntityMetaTable,
  EntityTable,
  FieldType,
  FromJSON,
  NormalizeResult,
  NormalizedStore,
  Schema,
  SchemaAttribute,
  SchemaInstance,
} from './schema/types.js';
export { normalize, NormalizeError } from './normalize/normalize.js';
export { denormalize } from './normalize/denormalizer.js';
export { MemoCache } from './normalize/memo-cache.js';
export { visitEntities } from './normalize/visit-entities.js';
export { paginatedFilter, paginatedMerge, removeCursor } from './schema/pagination.js';
export { ExpiryStatus } from './protocol/types.js';
export type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
  RetryOption,
  RunContext,
  Snapshot,
} from './protocol/types.js';
export { AbortError, NetworkError, ResponseFormatError, TimeoutError } from './errors.js';
export { RestEndpoint } from './rest/rest-endpoint.js';
export type { CreateEndpoint, PageEndpoint } from './rest/rest-endpoint.js';
export type {
  RestGenerics,
  RestEndpointOptions,
  EndpointExtraOptions,
  EndpointArgs,
  EndpointResult,
  UrlParams,
  HttpMethod,
} from './rest/endpoint-types.js';
export { createResource } from './rest/create-resource.js';
export type {
  Resource,
  ResourceMembers,
  ResourceOptions,
  ResourceExtend,
  EndpointClass,
  CollectionClass,
} from './rest/create-resource.js';
export { hookifyResource } from './rest/hookify-resource.js';
export type { HookifiedResource, UseInit } from './rest/hookify-resource.js';
export type { ShortenPath } from './rest/path.js';
export { Controller } from './controller/controller.js';
export type {
  ControllerOptions,
  ControllerStats,
  InFlightRequest,
  ReadRecord,
} from './controller/controller.js';
export { ResponseObserver, ReadStatus } from './controller/response-observer.js';
export type { ObservedRead } from './controller/response-observer.js';
export type {
  ActionEvent,
  ControllerEvent,
  ControllerEventListener,
  EnvironmentEvent,
  RequestEvent,
  SubscriptionEvent,
} from './controller/events.js';
export type { Manager } from './controller/manager.js';
export type { Action } from './store/actions.js';
export type { StoreChange, StoreView } from './store/store.js';
export { isEndpoint } from './protocol/is-endpoint.js';
export type { StoreState, ResponseMeta, ResponseError, OptimisticEntry } from './store/state.js';
export type { Timers } from './env/timers.js';
