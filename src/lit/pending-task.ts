/**
 * The pending-task community protocol: an element with async work in progress dispatches a
 * bubbling, composed `pending-task` event carrying a promise of its completion. A loading
 * boundary above it (`<resource-boundary>`) shows a fallback until the promise settles, and its
 * error part when it rejects. Elements of any framework can join by dispatching one.
 */

/**
 * @example
 * this.dispatchEvent(new PendingTaskEvent(loadChart(), () => loadChart()));
 */
export class PendingTaskEvent extends Event {
  static readonly eventName = 'pending-task';

  constructor(
    /** Settles when the work is done: rejects with the error when it failed. */
    readonly complete: Promise<unknown>,
    /** Starts the work again after a failure; resolves when it succeeded. */
    readonly retry?: () => Promise<unknown>,
  ) {
    super(PendingTaskEvent.eventName, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'pending-task': PendingTaskEvent;
  }
}

/**
 * A host's current wait, announced to boundaries above it as one `PendingTaskEvent` and settled
 * when the wait ends. Starting again while a wait is announced announces nothing new.
 */
export class PendingTask {
  #open: { resolve(): void; reject(error: unknown): void } | undefined;
  /** The last wait ended in a failure, which a boundary may still be showing. */
  #failed = false;
  readonly #host: EventTarget;
  readonly #retry: () => Promise<void>;

  /** @param retry the event's `retry`: starts the work again, rejects if it fails again */
  constructor(host: EventTarget, retry: () => Promise<void>) {
    this.#host = host;
    this.#retry = retry;
  }

  /** Announces a wait, unless one is announced already. */
  start(): void {
    if (this.#open) return;
    const complete = new Promise<void>((resolve, reject) => (this.#open = { resolve, reject }));
    // With no boundary listening, a failure must not become an unhandled rejection.
    complete.catch(() => {});
    this.#host.dispatchEvent(new PendingTaskEvent(complete, this.#retry));
  }

  /**
   * Ends the announced wait, if any: rejected when `failed`, with `error`. With no wait announced,
   * a change of outcome is announced as a task already settled: a host that fails with no wait
   * before (it found its read failed in the store, or came from under another boundary) shows
   * its error on the boundary; one whose last wait failed and that is fine now (its data arrived
   * some other way) has the boundary drop the failure it shows: the same work, done. A host that
   * left forgets its failure (the boundary it left drops it) and announces it where it lands.
   */
  settle(failed = false, error?: unknown): void {
    const open = this.#open;
    this.#open = undefined;
    if (open) {
      this.#failed = failed;
      if (failed) open.reject(error);
      else open.resolve();
    } else if (!(this.#host as Node).isConnected) {
      this.#failed = false;
    } else if (failed !== this.#failed) {
      this.#failed = failed;
      const complete = failed ? Promise.reject(error) : Promise.resolve();
      complete.catch(() => {});
      this.#host.dispatchEvent(new PendingTaskEvent(complete, this.#retry));
    }
  }
}
