/**
 * `resource-elements/core`: the DOM-free part of resource-elements. It runs in Node and in any
 * browser; nothing here imports Lit or touches the DOM.
 * @module resource-elements/core
 */
// The values first, in this order: it is the order of their modules in a bundle (each after what
// it imports), and with it gzip finds the most repeats within its 32 KB window (`node
// scripts/size.mjs`; the order was searched for, by moving one statement at a time). The types
// follow; where they stand changes nothing in a bundle.
export { INVALID } from './schema/types.js';
export { isEndpoint } from './protocol/is-endpoint.js';
import { ObjectSchema } from './schema/object.js';
import { Invalidate } from './schema/invalidate.js';
import { UnionSchema } from './schema/union.js';
import { ValuesSchema } from './schema/values.js';
import { Collection } from './schema/collection.js';
export { normalize, NormalizeError } from './normalize/normalize.js';
import { ArraySchema } from './schema/array.js';
export { hookifyResource } from './rest/hookify-resource.js';
export { denormalize } from './normalize/denormalizer.js';
export { fillPath, parsePath, pathParams, shortenPath } from './rest/path.js';
export { ExpiryStatus, NOT_MODIFIED } from './protocol/types.js';
export { MemoCache } from './normalize/memo-cache.js';
export { Entity } from './schema/entity.js';
export { visitEntities } from './normalize/visit-entities.js';
export { paginatedFilter, paginatedMerge, removeCursor } from './schema/pagination.js';
export { createResource } from './rest/create-resource.js';
export { RestEndpoint } from './rest/rest-endpoint.js';
export { Controller } from './controller/controller.js';
export { ResponseObserver, ReadStatus } from './controller/response-observer.js';
export { AbortError, NetworkError, ResponseFormatError, TimeoutError } from './errors.js';
import type * as schemaClasses from './schema/namespace.js';
import type { EntityClass, Schema } from './schema/types.js';

// `schema` is a frozen object, not `export * as schema`: a bundle then holds neither esbuild's
// namespace helper nor a getter per class. Its type is the module's (TypeDoc documents each class
// by it), and the namespace below gives each class's instance type by the same name.
/**
 * The schema classes: `schema.Collection`, `schema.Invalidate`, `schema.Array`, `schema.Object`,
 * `schema.Values`, `schema.Union`. Each is a value (`new schema.Collection([Todo])`, a base to
 * extend) and a type (`schema.Collection<readonly [typeof Todo]>`).
 * @namespace
 */
export const schema: typeof schemaClasses = /* @__PURE__ */ Object.freeze({
  Array: ArraySchema,
  Collection,
  Invalidate,
  Object: ObjectSchema,
  Union: UnionSchema,
  Values: ValuesSchema,
});
// eslint-disable-next-line @typescript-eslint/no-namespace -- the instance types, merged with the object
export declare namespace schema {
  /** An instance of `schema.Array`. */
  export type Array<S extends Schema = Schema> = schemaClasses.Array<S>;
  /** An instance of `schema.Collection`. */
  export type Collection<S extends readonly [Schema] = readonly [Schema]> =
    schemaClasses.Collection<S>;
  /** An instance of `schema.Invalidate`. */
  export type Invalidate<E extends EntityClass | schemaClasses.Union<any> = EntityClass> =
    schemaClasses.Invalidate<E>;
  /** An instance of `schema.Object`. */
  export type Object<
    S extends { readonly [key: string]: unknown } = { readonly [key: string]: unknown },
  > = schemaClasses.Object<S>;
  /** An instance of `schema.Union`. */
  export type Union<
    C extends { readonly [type: string]: EntityClass } = { readonly [type: string]: EntityClass },
  > = schemaClasses.Union<C>;
  /** An instance of `schema.Values`. */
  export type Values<S extends Schema = Schema> = schemaClasses.Values<S>;
}
export type { PathArgs, PathKeys, PathParam, PathToken, PathValue } from './rest/path.js';
export type {
  CollectionMerge,
  CollectionOptions,
  CreateCollectionFilter,
} from './schema/collection.js';
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
export type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
  Held,
  RetryOption,
  RunContext,
  Snapshot,
  StoreMemo,
} from './protocol/types.js';
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
export type {
  Resource,
  ResourceMembers,
  ResourceOptions,
  ResourceExtend,
  EndpointClass,
  CollectionClass,
} from './rest/create-resource.js';
export type { HookifiedResource, UseInit } from './rest/hookify-resource.js';
export type { ShortenPath } from './rest/path.js';
export type {
  ControllerOptions,
  ControllerStats,
  InFlightRequest,
  ReadRecord,
} from './controller/types.js';
export type { ObservedRead, ReadOptions, ReadView } from './controller/response-observer.js';
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
export type { StoreState, ResponseMeta, ResponseError, OptimisticEntry } from './store/state.js';
export type { Timers } from './env/timers.js';
