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

/**
 * One host's side of the protocol: tells the boundaries above `host` when its work starts waiting
 * with nothing to show, and how that wait ended; `retry` is what a boundary's retry calls (stable:
 * the boundary knows the task by it). It holds one open wait (its resolve and reject) and whether
 * the last wait failed.
 * @example
 * const tasks = new PendingTasks(host, () => reload());
 * tasks.wait(); // … later
 * tasks.end(true, error);
 */
export class PendingTasks {
  /** Announces `complete` to the boundaries above the host. */
  readonly #task: (complete: Promise<unknown>) => void;
  /** Resolves or rejects the wait announced to boundaries above the host (pending-task protocol). */
  #wait: [resolve: () => void, reject: (error: unknown) => void] | undefined;
  /** The last wait ended in a failure, which a boundary may still be showing. */
  #failed = false;

  constructor(host: HTMLElement, retry: () => Promise<unknown>) {
    this.#task = (complete) => {
      // With no boundary listening, a failure must not become an unhandled rejection.
      complete.catch(() => {});
      host.dispatchEvent(new PendingTaskEvent(complete, retry));
    };
  }

  /** The work waits with nothing to show: announced, unless a wait is announced already. */
  wait(): void {
    // Starting again while a wait is announced announces nothing new.
    if (!this.#wait) this.#task(new Promise<void>((...settle) => (this.#wait = settle)));
  }

  /**
   * The work is done: `failed` with `error` for boundaries to show, or fine. With no wait
   * announced, a change of outcome is announced as a task already settled: a host that fails
   * with no wait before (it found its read failed in the store, or came from under another
   * boundary) shows its error on the boundary; one whose last wait failed and that is fine now
   * (its data arrived some other way) has the boundary drop the failure it shows: the same work,
   * done.
   */
  end(failed: boolean, error?: unknown): void {
    const wait = this.#wait;
    this.#wait = undefined;
    if (wait) {
      if (failed) wait[1](error);
      else wait[0]();
    } else if (failed !== this.#failed) {
      this.#task(failed ? Promise.reject(error) : Promise.resolve());
    }
    this.#failed = failed;
  }

  /**
   * Nobody waits for a host that left: its boundary must not hang, and forgets its failure
   * (announced again where it lands).
   */
  leave(): void {
    // Its open wait ends as fine work does; with none, nothing is announced (no failure kept).
    this.#failed = false;
    this.end(false);
  }
}

declare global {
  interface HTMLElementEventMap {
    'pending-task': PendingTaskEvent;
  }
}
