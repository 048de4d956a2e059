// One controller with fake time and a fake server, and a guard against unhandled rejections.
import { after, before } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller.js';
import type { ControllerOptions } from '../types.js';
import type { StoreState } from '../../store/state.js';
import { FakeClock } from './fake-clock.js';
import { FakeServer } from './fake-fetch.js';

export function setup(options: Partial<ControllerOptions> & { intervals?: boolean } = {}) {
  const clock = new FakeClock();
  const server = new FakeServer();
  const controller = new Controller({
    fetch: server.fetch,
    now: clock.now,
    timers: options.intervals === false ? clock.timeoutsOnly : clock.timers,
    ...options,
  });
  return { clock, server, controller };
}

/** Registers, for the whole test file, a listener that fails the file on any unhandled rejection. */
export function failOnUnhandledRejection(): void {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  before(() => void process.on('unhandledRejection', listener));
  after(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', listener);
    assert.deepEqual(seen, [], 'no promise rejection went unhandled');
  });
}

/** Everything but the errors slice: what a failure must leave exactly as it was. */
export function withoutErrors(state: StoreState): Omit<StoreState, 'errors'> {
  const { errors: _errors, ...rest } = state;
  return rest;
}
