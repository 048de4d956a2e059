import { isEndpoint } from '../core/index.js';
import type { EndpointLike } from '../core/index.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The endpoints a page named, and who waits for a name to be registered. */
interface Registry {
  readonly reads: Map<string, EndpointLike>;
  readonly listeners: Set<() => void>;
}

// One registry per page, shared by every copy of this module: the first copy's <resource-read>
// is the one defined, and it must see what a second copy registered.
const KEY = Symbol.for('resource-elements.reads');
const registry: Registry = ((globalThis as { [KEY]?: Registry })[KEY] ??= {
  reads: new Map(),
  listeners: new Set(),
});

/**
 * Names endpoints for `<resource-read endpoint="…">`: the page refers to a read by one of these
 * names and never by code. Call it from a script before or after the elements upgrade: an element
 * whose name is not registered yet reads as soon as it is. A name keeps its first endpoint (in
 * development, registering another endpoint under it throws).
 *
 * @example
 * ```ts
 * registerReads({ todos: TodoResource.getList, todo: TodoResource.get });
 * // <resource-read endpoint="todos" param-user-id="1">…</resource-read>
 * ```
 */
export function registerReads(reads: Readonly<Record<string, EndpointLike>>): void {
  for (const [name, endpoint] of Object.entries(reads)) {
    if (DEV()) {
      if (!isEndpoint(endpoint)) {
        throw new TypeError(
          `registerReads: "${name}" is not an endpoint (give TodoResource.getList, not a hook or an Entity class).`,
        );
      }
      if (endpoint.sideEffect) {
        throw new TypeError(
          `registerReads: "${name}" is ${endpoint.name}, a mutation: a <resource-read> reads (run mutations with bindMutation).`,
        );
      }
      const known = registry.reads.get(name);
      if (known && known !== endpoint) {
        throw new Error(
          `registerReads: "${name}" is already registered for ${known.name}; give ${endpoint.name} another name.`,
        );
      }
    }
    if (!registry.reads.has(name)) registry.reads.set(name, endpoint);
  }
  for (const listener of [...registry.listeners]) listener();
}

/**
 * The endpoint registered as `name`.
 * @example registeredRead('todos') // TodoResource.getList
 */
export const registeredRead = (name: string): EndpointLike | undefined => registry.reads.get(name);

/**
 * The names registered so far (for an error's hint).
 * @example registeredNames() // ['todos', 'todo']
 */
export const registeredNames = (): string[] => [...registry.reads.keys()];

/**
 * Calls `listener` after each `registerReads` until the returned function is called.
 * @example const stop = onRegister(() => element.update());
 */
export function onRegister(listener: () => void): () => void {
  registry.listeners.add(listener);
  return () => registry.listeners.delete(listener);
}
