/**
 * Garbage collection as a manager: responses nobody used for `gcTime` are dropped, then the
 * entities nothing references any more. A response is in use while something subscribes to it
 * or a request for it is in flight; its time starts when the last of those ends or when it is
 * written. What it knows of each key is the Controller's own record (`reads()`): it keeps none.
 */
import type { Controller, ReadRecord } from '../controller/controller.js';
import { controllerInternals } from '../protocol/internals.js';
import type { Manager } from '../controller/manager.js';
import { storeArgs } from '../protocol/store-key.js';
import { unref } from '../env/timers.js';
import { storedKeys } from '../store/state.js';
import { collectGarbage } from './collect-garbage.js';

/**
 * @example new Controller({ gcTime: 60_000 }) // attaches one with that time
 */
export class GcManager implements Manager {
  constructor(readonly gcTime: number) {}

  attach(controller: Controller): () => void {
    const internals = controller[controllerInternals]();
    const { timers } = controller;
    const gcTime = this.gcTime;
    let timer: unknown;

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
        Math.max(0, at - controller.now()),
      );
      unref(timer);
    };

    const collect = (): void => {
      const { committed, visible, optimisticReads } = internals.store;
      const records = new Map<string, ReadRecord>();
      const held = new Set<string>();
      for (const record of controller.reads()) {
        records.set(record.key, record);
        if (record.subscribers + record.inFlight > 0) held.add(record.key);
      }
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
        now: controller.now(),
        gcTime,
        isHeld: (key) => held.has(key),
        heldKeys: () => held,
        lastUsed: (key) => records.get(key)?.lastUsed ?? 0,
        shapeOf: (key) => {
          const shown = records.get(key)?.shown;
          return (
            shown && { schema: shown.endpoint.schema, args: storeArgs(shown.endpoint, shown.args) }
          );
        },
        optimistic,
        optimisticReads,
      });
      controller.dispatch({ type: 'gc', keys: collected.keys, entities: collected.entities });
      if (collected.nextRun !== undefined) schedule(collected.nextRun);
    };

    // Something may become collectable gcTime after a key is left or written (the Controller
    // keeps when), or after entities are written: look then.
    const stop = controller.events.subscribe((event) => {
      if (
        (event.type === 'subscription' && event.phase === 'remove') ||
        (event.type === 'request' && event.phase === 'settle') ||
        (event.type === 'action' && /^(response|entities)\/|^hydrate$/.test(event.action.type))
      ) {
        schedule(controller.now() + gcTime);
      }
    });
    if (storedKeys(internals.store.committed).length > 0) schedule(controller.now() + gcTime);
    return () => {
      stop();
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    };
  }
}
