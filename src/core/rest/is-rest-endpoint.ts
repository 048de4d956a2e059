import { isEndpoint } from '../protocol/is-endpoint.js';
import type { RestEndpoint } from './rest-endpoint.js';

/**
 * True for an endpoint that can be extended: what a resource's members are, as opposed to the
 * helpers (`extend` itself) and values a resource also holds.
 * @example isRestEndpoint(TodoResource.get) // true
 */
export function isRestEndpoint(value: unknown): value is RestEndpoint<any> {
  return isEndpoint(value) && typeof (value as { extend?: unknown }).extend === 'function';
}
