/**
 * A tiny subscriber set, shared by the store's listeners and the Controller's event stream.
 */

/**
 * Holds subscribers; `subscribe` returns the function that removes one.
 * @example
 * class Ticks extends Subscribable<(n: number) => void> {
 *   tick(n: number) { tellEach(this.subscribers, (listener) => listener(n)); }
 * }
 */
export class Subscribable<T> {
  protected readonly subscribers = new Set<T>();

  /** Adds `subscriber`; calling the result more than once removes it once. */
  subscribe(subscriber: T): () => void {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  }

  /** How many subscribers there are. */
  get size(): number {
    return this.subscribers.size;
  }
}

/**
 * Calls `call` with each of `subscribers` in order. One removed by an earlier call is skipped (it
 * asked not to be called again); one that throws does not keep the others stale, and its error
 * still surfaces, in a microtask.
 * @example tellEach(this.subscribers, (listener) => listener(change));
 */
export function tellEach<T>(subscribers: ReadonlySet<T>, call: (subscriber: T) => void): void {
  for (const subscriber of [...subscribers]) {
    if (subscribers.has(subscriber)) {
      try {
        call(subscriber);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
