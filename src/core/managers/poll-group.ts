/**
 * The readers of one request (same key) and the one timer that polls it for all of them.
 */
import { Subscribable } from '../env/subscribable.js';
import { repeat } from '../env/timers.js';
import type { Timers } from '../env/timers.js';
import type { EndpointLike } from '../protocol/types.js';

/** One `subscribe(endpoint, ...args)` call. */
export interface Interest {
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
}

/** What a group needs from the controller. */
export interface PollGroupHost {
  readonly timers: Timers;
  /** False while offline: polling pauses. */
  isOnline(): boolean;
  /** Fetches in the background for `interest`. */
  poll(interest: Interest): void;
  /** A timer started (+1) or stopped (-1), for `stats()`. */
  countTimer(delta: 1 | -1): void;
}

/**
 * Several subscribers share one timer at the smallest `pollFrequency` among them; the timer stops
 * when the last leaves or the controller goes offline.
 * @example
 * const group = new PollGroup(host);
 * const leave = group.subscribe({ endpoint, args });
 * leave(); // the timer is gone
 */
export class PollGroup extends Subscribable<Interest> {
  #stop: (() => void) | undefined;
  #frequency: number | undefined;
  /** Whom the timer polls for: kept current even when the frequency does not change. */
  #polled: Interest | undefined;

  readonly #host: PollGroupHost;

  constructor(host: PollGroupHost) {
    super();
    this.#host = host;
  }

  /** Any one reader, for refetching on online/focus. */
  get first(): Interest | undefined {
    for (const interest of this.subscribers) return interest;
    return undefined;
  }

  /** Starts, restarts or stops the timer to match the subscribers and the network. */
  update(): void {
    let fastest: Interest | undefined;
    for (const interest of this.subscribers) {
      const frequency = interest.endpoint.pollFrequency;
      // Infinity means never (a timer would cap it at 24.8 days and poll then).
      if (frequency === undefined || !(frequency > 0 && frequency < Infinity)) continue;
      if (!fastest || frequency < fastest.endpoint.pollFrequency!) fastest = interest;
    }
    const frequency = this.#host.isOnline() ? fastest?.endpoint.pollFrequency : undefined;
    this.#polled = fastest;
    if (frequency === this.#frequency) return;
    this.stop();
    if (frequency === undefined) return;
    this.#frequency = frequency;
    this.#stop = repeat(
      this.#host.timers,
      () => {
        if (this.#polled) this.#host.poll(this.#polled);
      },
      frequency,
    );
    this.#host.countTimer(1);
  }

  /** Stops the timer (going offline, or nobody left). */
  stop(): void {
    if (!this.#stop) return;
    this.#stop();
    this.#stop = undefined;
    this.#frequency = undefined;
    this.#host.countTimer(-1);
  }

  protected override onSubscribe(): void {
    this.update();
  }

  protected override onUnsubscribe(): void {
    this.update();
  }
}
