/**
 * A tiny subscriber set whose subclasses start shared work when the first subscriber arrives and
 * stop it when the last leaves, so nothing runs for nobody.
 */

/**
 * Holds subscribers; `subscribe` returns the function that removes one.
 * @example
 * class Clock extends Subscribable<() => void> {
 *   protected override onSubscribe() { if (this.size === 1) this.start(); }
 *   protected override onUnsubscribe() { if (this.size === 0) this.stop(); }
 * }
 */
export class Subscribable<T> {
  protected readonly subscribers = new Set<T>();

  /** Adds `subscriber`; calling the result more than once removes it once. */
  subscribe(subscriber: T): () => void {
    this.subscribers.add(subscriber);
    this.onSubscribe(subscriber);
    return () => {
      if (!this.subscribers.delete(subscriber)) return;
      this.onUnsubscribe(subscriber);
    };
  }

  /** How many subscribers there are. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Called after a subscriber was added. */
  protected onSubscribe(_subscriber: T): void {}

  /** Called after a subscriber was removed. */
  protected onUnsubscribe(_subscriber: T): void {}
}

/**
 * Calls `call` with each of `subscribers` in order. One removed by an earlier call is skipped (it
 * asked not to be called again); one that throws does not keep the others stale, and its error
 * still surfaces, in a microtask.
 * @example tellEach(this.subscribers, (listener) => listener(change));
 */
export function tellEach<T>(subscribers: ReadonlySet<T>, call: (subscriber: T) => void): void {
  for (const subscriber of [...subscribers]) {
    if (!subscribers.has(subscriber)) continue;
    try {
      call(subscriber);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
