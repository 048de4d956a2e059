/**
 * A clock and timers that move only when a test says so.
 */
import type { Timers } from '../../env/timers.js';

interface Scheduled {
  readonly id: number;
  at: number;
  readonly callback: () => void;
  /** Set for intervals: rescheduled after each run. */
  readonly every?: number;
}

/**
 * Fake time. `advance(ms)` runs every timer that falls due, in order, moving `now` to each.
 * @example
 * const clock = new FakeClock();
 * const controller = new Controller({ now: clock.now, timers: clock.timers });
 * clock.advance(60_000);
 */
export class FakeClock {
  #now: number;
  #nextId = 1;
  readonly #scheduled = new Map<number, Scheduled>();

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  readonly now = (): number => this.#now;

  /** Timer functions that use this clock (setInterval included). */
  readonly timers: Timers = {
    setTimeout: (callback, ms) => this.#add(callback, ms),
    clearTimeout: (handle) => void this.#scheduled.delete(handle as number),
    setInterval: (callback, ms) => this.#add(callback, ms, Math.max(1, ms)),
    clearInterval: (handle) => void this.#scheduled.delete(handle as number),
  };

  /** The same without setInterval, so polling uses chained timeouts. */
  readonly timeoutsOnly: Timers = {
    setTimeout: this.timers.setTimeout,
    clearTimeout: this.timers.clearTimeout,
  };

  /** Timers not yet run or cleared. */
  get pending(): number {
    return this.#scheduled.size;
  }

  /** Moves time forward by `ms`, running due timers. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let next: Scheduled | undefined;
      for (const timer of this.#scheduled.values()) {
        if (timer.at <= end && (!next || timer.at < next.at)) next = timer;
      }
      if (!next) break;
      this.#now = Math.max(this.#now, next.at);
      if (next.every === undefined) this.#scheduled.delete(next.id);
      else next.at += next.every;
      next.callback();
    }
    this.#now = end;
  }

  #add(callback: () => void, ms: number, every?: number): number {
    const id = this.#nextId++;
    const timer: Scheduled = { id, at: this.#now + Math.max(0, ms), callback };
    this.#scheduled.set(id, every === undefined ? timer : { ...timer, every });
    return id;
  }
}
