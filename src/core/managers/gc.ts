/**
 * Garbage collection as a manager: responses nobody used for `gcTime` are dropped, then the
 * entities nothing references any more. A response is in use while something subscribes to it
 * or a request for it is in flight; its time starts when the last of those ends or when it is
 * written. What it knows of each key is the Controller's own record (`reads()`): it keeps none.
 */
import type { Controller } from '../controller/controller.js';
import type { Manager } from '../controller/manager.js';
import { storeArgs } from '../protocol/store-key.js';
import { unref } from '../env/timers.js';
import { storedKeys } from '../store/state.js';
import type { StoreState } from '../store/state.js';
import { EntityMarks } from '../store/entity-marks.js';
import { storedEntityOf } from '../store/read-response.js';
import { visitEntities } from '../normalize/visit-entities.js';
import { getOwn, hasOwn } from '../util/own.js';

/**
 * @example new Controller({ gcTime: 60_000 }) // attaches one with that time
 */
export class GcManager implements Manager {
  constructor(readonly gcTime: number) {}

  attach(controller: Controller): () => void {
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
      const { committed, visible, optimisticReads } = controller.store;
      const running = new Map(controller.inFlight().map((request) => [request.id, request]));
      const now = controller.now();
      const marks = new EntityMarks();
      /** Marks what `value` (stored for `schema`) references, `args` its read's. */
      const mark = (schema: unknown, value: unknown, state: StoreState, args: readonly unknown[]) =>
        visitEntities(schema, value, state.entities, args, (key, pk) => marks.add(key, pk));
      const stored = new Set(storedKeys(committed));
      const keys: string[] = [];
      let nextRun: number | undefined;
      // Whether every kept response's entities could be found: if not, no entity is dropped.
      let known = true;
      /** A stored response due at `due`: collected when nothing holds it and it is due. */
      const due = (key: string, at: number, held: boolean): boolean => {
        if (!held && at <= now) return !!keys.push(key);
        if (!held && (nextRun === undefined || at < nextRun)) nextRun = at;
        return false;
      };
      for (const { key, subscribers, inFlight, lastUsed, shown } of controller.reads()) {
        const held = subscribers + inFlight > 0;
        if (stored.delete(key) && due(key, lastUsed + gcTime, held)) continue;
        const args = shown && storeArgs(shown.endpoint, shown.args);
        if (hasOwn(committed.endpoints, key)) {
          if (shown) mark(shown.endpoint.schema, committed.endpoints[key], committed, args!);
          else known = false;
        } else if (held && shown) {
          // A read of one entity served from the store (no response of its own): keep it.
          const found = storedEntityOf(shown.endpoint.schema, args!);
          if (found) {
            marks.add(found.entity.key, found.pk);
            mark(found.entity, found.pk, committed, args!);
          }
        }
      }
      // Stored, with no record (never used since it was restored): as old as the Controller.
      for (const key of stored) {
        if (!due(key, gcTime, false) && hasOwn(committed.endpoints, key)) known = false;
      }
      for (const entry of committed.optimistic) {
        const endpoint = running.get(entry.id)?.endpoint;
        if (endpoint && hasOwn(visible.endpoints, entry.key)) {
          mark(
            endpoint.schema,
            visible.endpoints[entry.key],
            visible,
            storeArgs(endpoint, entry.args),
          );
        }
      }
      marks.addAll(optimisticReads);
      const entities: [string, string][] = [];
      if (known) {
        for (const key of Object.keys(committed.entities)) {
          for (const pk of Object.keys(getOwn(committed.entities, key)!)) {
            if (!marks.has(key, pk)) entities.push([key, pk]);
          }
        }
        for (const key of Object.keys(committed.entitiesMeta)) {
          const table = getOwn(committed.entities, key);
          for (const pk of Object.keys(getOwn(committed.entitiesMeta, key)!)) {
            if (!marks.has(key, pk) && !(table && hasOwn(table, pk))) entities.push([key, pk]);
          }
        }
      }
      controller.dispatch({ type: 'gc', keys, entities });
      if (nextRun !== undefined) schedule(nextRun);
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
    if (storedKeys(controller.store.committed).length > 0) schedule(controller.now() + gcTime);
    return () => {
      stop();
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    };
  }
}
