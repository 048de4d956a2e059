/**
 * Deciding what the store can forget: responses nobody used for `gcTime`, then the entities no
 * remaining response (and no pending optimistic update) references.
 */
import { visitEntities } from '../normalize/visit-entities.js';
import { getOwn, hasOwn } from '../util/own.js';
import { EntityMarks } from '../store/entity-marks.js';
import { storedKeys } from '../store/state.js';
import type { StoreState } from '../store/state.js';
import { storedEntityOf } from '../store/read-response.js';

/** How a stored result was produced, needed to find the entities it references. */
export interface ResultShape {
  readonly schema: unknown;
  readonly args: readonly unknown[];
}

/** What the collector needs to know beyond the state. */
export interface CollectInput {
  readonly committed: StoreState;
  readonly visible: StoreState;
  readonly now: number;
  readonly gcTime: number;
  /** True for keys a subscriber, a request in flight or a pending optimistic update needs. */
  isHeld(key: string): boolean;
  /** Every held key. */
  heldKeys(): Iterable<string>;
  /** When the key was last written or last left by a subscriber. */
  lastUsed(key: string): number;
  /** The schema and args of a stored result; undefined when not known yet (a restored state). */
  shapeOf(key: string): ResultShape | undefined;
  /** Pending optimistic updates: their results in the visible state, and the shape to read them. */
  readonly optimistic: readonly { readonly key: string; readonly shape: ResultShape }[];
  /** Entities pending optimistic updates read through their snapshots. */
  readonly optimisticReads: EntityMarks;
}

/** What to drop, and when to look again. */
export interface Collected {
  readonly keys: string[];
  readonly entities: [string, string][];
  /** When the next kept, unheld key runs out of time; undefined when none will. */
  readonly nextRun: number | undefined;
}

/**
 * Finds what can be dropped now.
 * @example store.dispatch({ type: 'gc', ...collectGarbage(input) });
 */
export function collectGarbage(input: CollectInput): Collected {
  const { committed, now, gcTime } = input;
  const keys: string[] = [];
  let nextRun: number | undefined;
  const kept: string[] = [];
  for (const key of storedKeys(committed)) {
    if (input.isHeld(key)) {
      kept.push(key);
      continue;
    }
    const due = input.lastUsed(key) + gcTime;
    if (due <= now) {
      keys.push(key);
    } else {
      kept.push(key);
      if (nextRun === undefined || due < nextRun) nextRun = due;
    }
  }
  return { keys, entities: unreferencedEntities(input, kept), nextRun };
}

function unreferencedEntities(input: CollectInput, kept: readonly string[]): [string, string][] {
  const { committed, visible } = input;
  const marks = new EntityMarks();
  for (const key of kept) {
    if (!hasOwn(committed.endpoints, key)) continue;
    const shape = input.shapeOf(key);
    // A result we cannot read (restored, not asked for since) may reference anything: keep all.
    if (!shape) return [];
    visitEntities(shape.schema, committed.endpoints[key], committed.entities, shape.args, (k, pk) =>
      marks.add(k, pk),
    );
  }
  for (const { key, shape } of input.optimistic) {
    if (!hasOwn(visible.endpoints, key)) continue;
    visitEntities(shape.schema, visible.endpoints[key], visible.entities, shape.args, (k, pk) =>
      marks.add(k, pk),
    );
  }
  // A held read of one entity served straight from the store keeps that entity, and the
  // entities it points to (its author must not go blank when the list that brought it goes).
  for (const key of input.heldKeys()) {
    if (hasOwn(committed.endpoints, key)) continue;
    const shape = input.shapeOf(key);
    const found = shape && storedEntityOf(shape.schema, shape.args);
    if (found === undefined) continue;
    marks.add(found.entity.key, found.pk);
    visitEntities(found.entity, found.pk, committed.entities, shape!.args, (k, id) =>
      marks.add(k, id),
    );
  }
  marks.addAll(input.optimisticReads);
  const dropped: [string, string][] = [];
  for (const key of Object.keys(committed.entities)) {
    const pks = getOwn(committed.entities, key)!;
    for (const pk of Object.keys(pks)) if (!marks.has(key, pk)) dropped.push([key, pk]);
  }
  // entitiesMeta may hold pks whose entity is gone already; forget those too.
  for (const key of Object.keys(committed.entitiesMeta)) {
    const pks = getOwn(committed.entitiesMeta, key)!;
    const entities = getOwn(committed.entities, key);
    for (const pk of Object.keys(pks)) {
      if (!marks.has(key, pk) && !(entities && hasOwn(entities, pk))) dropped.push([key, pk]);
    }
  }
  return dropped;
}
