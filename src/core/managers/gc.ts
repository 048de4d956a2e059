/**
 * Garbage collection as a manager: responses nobody used for `gcTime` are dropped, then the
 * entities nothing references any more. A response is in use while something subscribes to it
 * or a request for it is in flight; its time starts when the last of those ends or when it is
 * written. It keeps its own record per key, learned from the Controller's events.
 */
import type { Controller } from '../controller/controller.js';
import { controllerInternals } from '../protocol/internals.js';
import type { ControllerEvent } from '../controller/events.js';
import type { Manager } from '../controller/manager.js';
import { storeArgs } from '../protocol/store-key.js';
import type { EndpointLike } from '../protocol/types.js';
import { unref } from '../env/timers.js';
import { collectGarbage, isStored, storedKeys } from './collect-garbage.js';
import type { ResultShape } from './collect-garbage.js';

interface KeyUse {
  /** Subscriptions and requests in flight. */
  holds: number;
  lastUsed: number;
  shape?: ResultShape;
}

/**
 * @example new Controller({ gcTime: 60_000 }) // attaches one with that time
 */
export class GcManager implements Manager {
  constructor(readonly gcTime: number) {}

  attach(controller: Controller): () => void {
    const internals = controller[controllerInternals]();
    const { timers, now } = internals;
    const gcTime = this.gcTime;
    const uses = new Map<string, KeyUse>();
    let timer: unknown;

    const useOf = (key: string): KeyUse => {
      let use = uses.get(key);
      if (!use) uses.set(key, (use = { holds: 0, lastUsed: now() }));
      return use;
    };
    const learn = (use: KeyUse, endpoint: EndpointLike, args: readonly unknown[]): void => {
      use.shape = { schema: endpoint.schema, args: storeArgs(endpoint, args) };
    };
    const touch = (key: string): void => {
      useOf(key).lastUsed = now();
      schedule(now() + gcTime);
    };

    /**
     * Arms the timer unless it is armed: it is armed only while something may become
     * collectable, and disarms itself when nothing is.
     */
    const schedule = (at: number): void => {
      if (timer !== undefined) return;
      timer = timers.setTimeout(
        () => {
          timer = undefined;
          collect();
        },
        Math.max(0, at - now()),
      );
      unref(timer);
    };

    const collect = (): void => {
      const { committed, visible, optimisticReads } = internals.store;
      const optimistic = [];
      for (const entry of committed.optimistic) {
        const endpoint = internals.optimistic.endpointOf(entry.id);
        if (endpoint) {
          optimistic.push({
            key: entry.key,
            shape: { schema: endpoint.schema, args: storeArgs(endpoint, entry.args) },
          });
        }
      }
      const collected = collectGarbage({
        committed,
        visible,
        now: now(),
        gcTime,
        isHeld: (key) => (uses.get(key)?.holds ?? 0) > 0,
        heldKeys: () => {
          const held: string[] = [];
          for (const [key, use] of uses) if (use.holds > 0) held.push(key);
          return held;
        },
        lastUsed: (key) => uses.get(key)?.lastUsed ?? 0,
        shapeOf: (key) => uses.get(key)?.shape,
        optimistic,
        optimisticReads,
      });
      controller.dispatch({ type: 'gc', keys: collected.keys, entities: collected.entities });
      const after = internals.store.committed;
      for (const [key, use] of uses) if (use.holds === 0 && !isStored(after, key)) uses.delete(key);
      if (collected.nextRun !== undefined) schedule(collected.nextRun);
    };

    const onEvent = (event: ControllerEvent): void => {
      switch (event.type) {
        case 'subscription':
        case 'request': {
          const use = useOf(event.key);
          learn(use, event.endpoint, event.args);
          const start =
            event.type === 'subscription' ? event.phase === 'add' : event.phase === 'start';
          use.holds += start ? 1 : -1;
          // Unused from now on: its gcTime starts here.
          if (use.holds === 0) touch(event.key);
          break;
        }
        case 'action': {
          const { action } = event;
          if (action.type === 'response/set' || action.type === 'response/error') touch(action.key);
          else if (action.type === 'entities/set') schedule(now() + gcTime);
          else if (action.type === 'hydrate')
            for (const key of storedKeys(action.state)) touch(key);
          break;
        }
      }
    };

    // A restored response is as good as new: it gets a full gcTime for a reader to claim it.
    for (const key of storedKeys(internals.store.committed)) touch(key);
    const stop = controller.events.subscribe(onEvent);
    return () => {
      stop();
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    };
  }
}
