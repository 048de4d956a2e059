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
