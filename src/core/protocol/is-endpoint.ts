import type { EndpointLike } from './types.js';

/**
 * True for an endpoint. Endpoints, hooks and Entity classes are all functions: only an endpoint
 * has a `key` method (an Entity class has a `key` string).
 * @example isEndpoint(TodoResource.get) // true; isEndpoint(() => TodoResource.get) // false
 */
export function isEndpoint(value: unknown): value is EndpointLike {
  return (
    typeof value === 'function' &&
    typeof (value as { key?: unknown }).key === 'function' &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}
