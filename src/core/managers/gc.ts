/**
 * Garbage collection as a manager: responses nobody used for `gcTime` are dropped, then the
 * entities nothing references any more. A response is in use while something subscribes to it
 * or a request for it is in flight; its time starts when the last of those ends or when it is
 * written. It keeps nothing of its own: the Controller's records (`reads()`, one per key the
 * store holds), its requests in flight and its read-only `store` say it all.
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
import { hasOwn } from '../util/own.js';

/**
 * The manager of a Controller's `gcTime` (a finite one).
 * @example gcManager(60_000) // what new Controller({ gcTime: 60_000 }) attaches
 */
export const gcManager = (gcTime: number): Manager => ({
  attach(controller: Controller): () => void {
    let timer: unknown;

    /**
     * Arms the timer (for `gcTime` from now unless `at` says when) unless it is armed: it is
     * armed only while something may become collectable, and disarms itself when nothing is.
     */
    const schedule = (at = controller.now() + gcTime): void => {
      if (timer !== undefined) return;
      timer = controller.timers.setTimeout(() => {
        timer = undefined;
        collect();
      }, at - controller.now());
      unref(timer);
    };

    const collect = (): void => {
      const { committed, visible, optimisticReads } = controller.store;
      const now = controller.now();
      const marks = new EntityMarks();
      /** Marks what `value` (stored for `schema`) references (the walk reads no args). */
      const mark = (schema: unknown, value: unknown, state: StoreState) =>
        visitEntities(schema, value, state.entities, [], (key, pk) => marks.add(key, pk));
      const stored = new Set(storedKeys(committed));
      const keys: string[] = [];
      let next = Infinity;
      // Whether every kept response's entities could be found: if not, no entity is dropped.
      let known = true;
      for (const { key, subscribers, inFlight, lastUsed, shown } of controller.reads()) {
        const held = subscribers + inFlight > 0;
        const due = lastUsed + gcTime;
        if (!held && stored.has(key)) {
          if (due <= now) {
            keys.push(key);
            continue;
          }
          next = Math.min(next, due);
        }
        if (hasOwn(committed.endpoints, key)) {
          // A response restored and never read since: its schema is unknown.
          if (shown) mark(shown.endpoint.schema, committed.endpoints[key], committed);
          else known = false;
        } else if (held && shown) {
          // A read of one entity served from the store (no response of its own): keep it (the
          // walk of an entity by its pk reads, and so marks, the entity itself first).
          const found = storedEntityOf(
            shown.endpoint.schema,
            storeArgs(shown.endpoint, shown.args),
          );
          if (found) mark(found.entity, found.pk, committed);
        }
      }
      // What pending optimistic updates show: a request in flight owns each.
      for (const { endpoint, key } of controller.inFlight()) {
        if (hasOwn(visible.endpoints, key)) mark(endpoint.schema, visible.endpoints[key], visible);
      }
      const entities: [string, string][] = [];
      if (known) {
        // An entity's meta may outlive its row (an entity marked INVALID): both tables are swept.
        for (const table of [committed.entities, committed.entitiesMeta]) {
          for (const type in table) {
            for (const pk in table[type]) {
              if (marks.has(type, pk) || optimisticReads.has(type, pk)) continue;
              marks.add(type, pk);
              entities.push([type, pk]);
            }
          }
        }
      }
      controller.dispatch({ type: 'gc', keys, entities });
      if (next < Infinity) schedule(next);
    };

    // Something may become collectable gcTime after a key is left or written (the Controller
    // keeps when), or after entities are written: look then.
    const stop = controller.events.subscribe((event) => {
      // 'remove' and 'settle' are phases of one event type each (a subscription, a request).
      const { phase } = event as { phase?: string };
      if (
        phase === 'remove' ||
        phase === 'settle' ||
        (event.type === 'action' && /^(response|entities)\/|^hydrate$/.test(event.action.type))
      ) {
        schedule();
      }
    });
    if (storedKeys(controller.store.committed).length > 0) schedule();
    return () => {
      stop();
      controller.timers.clearTimeout(timer);
      timer = undefined;
    };
  },
});
