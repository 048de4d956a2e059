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
