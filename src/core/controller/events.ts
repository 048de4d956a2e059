/**
 * What happens in a Controller, as a typed stream that managers, devtools and persistence read.
 */
import type { EndpointLike } from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import type { StoreState } from '../store/state.js';
import { Subscribable, tellEach } from '../env/subscribable.js';

/** An action was committed to the store. `state` is for reading now (keep `getState()`). */
export interface ActionEvent {
  readonly type: 'action';
  readonly action: Action;
  readonly state: StoreState;
}

/** A request started, or settled (`ok`, or its `error`; `aborted` when nobody needed it). */
export interface RequestEvent {
  readonly type: 'request';
  readonly phase: 'start' | 'settle';
  /** Unique per controller; the same for a request's start and settle. */
  readonly id: number;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  /** The store key its response lands on. */
  readonly key: string;
  readonly ok?: boolean;
  readonly error?: unknown;
  readonly aborted?: boolean;
  /**
   * An answer (data or failure) that was not stored: an outcome of a request started later was
   * there already.
   */
  readonly outdated?: boolean;
}

/** Someone began (`add`) or ended (`remove`) an interest in a read (`Controller.subscribe`). */
export interface SubscriptionEvent {
  readonly type: 'subscription';
  readonly phase: 'add' | 'remove';
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  readonly key: string;
  /** Subscriptions to this key after the change. */
  readonly count: number;
}

/** The network went away or came back, or the page was shown again. */
export interface EnvironmentEvent {
  readonly type: 'online' | 'offline' | 'focus';
}

/** Every event of `Controller.events`. */
export type ControllerEvent = ActionEvent | RequestEvent | SubscriptionEvent | EnvironmentEvent;

/** A listener of `Controller.events`. */
export type ControllerEventListener = (event: ControllerEvent) => void;

/**
 * The stream itself: `subscribe(listener)` returns the function that removes it. A failing
 * listener does not keep the others from hearing the event.
 * @example const stop = controller.events.subscribe((event) => console.log(event.type));
 */
export class ControllerEvents extends Subscribable<ControllerEventListener> {
  /** The event being told and those emitted meanwhile, oldest first. */
  readonly #queue: ControllerEvent[] = [];

  /**
   * Tells every listener. An event a listener causes (it dispatched, fetched, subscribed) waits
   * until every listener heard the one being told: all hear all events in the order they happened.
   */
  emit(event: ControllerEvent): void {
    if (this.#queue.push(event) > 1) return;
    // The loop also reaches events pushed while it runs.
    for (const next of this.#queue) {
      tellEach(this.subscribers, (listener) => listener(next));
    }
    this.#queue.length = 0;
  }
}
