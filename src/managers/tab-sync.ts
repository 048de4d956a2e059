/**
 * Tab sync as a manager: the entity changes one tab commits reach every other tab of the same
 * origin through a BroadcastChannel, and land in their stores without a request. Only committed
 * changes travel (a pending optimistic update stays in its tab until its request settles); a reset
 * travels too; what a tab received it does not send on, so tabs never echo each other.
 */
import { hydrate } from '../hydration/index.js';
import type { Controller, ControllerEvent, Manager, StoreState } from '../core/index.js';
import { decodeState, encodeState } from './state-codec.js';

/** What tabs say to each other. */
export type TabSyncMessage =
  { readonly type: 'state'; readonly state: Partial<StoreState> } | { readonly type: 'reset' };

/** Options of `new TabSyncManager()`. */
export interface TabSyncOptions {
  /** The channel's name: tabs with the same name share changes. Default `'resource-elements'`. */
  channel?: string;
  /** The BroadcastChannel constructor (tests pass a counting one). Default: the host's. */
  BroadcastChannel?: typeof BroadcastChannel;
}

type Table<T> = Record<string, Record<string, T>>;

/**
 * @example
 * new Controller({ managers: [new TabSyncManager({ channel: 'my-app' })] });
 */
export class TabSyncManager implements Manager {
  readonly #options: TabSyncOptions;

  constructor(options: TabSyncOptions = {}) {
    this.#options = options;
  }

  /**
   * Shares what `controller` commits with the other tabs of this origin, and takes theirs;
   * returns the function that stops it.
   * @example new Controller({ managers: [new TabSyncManager()] });
   */
  attach(controller: Controller): () => void {
    const Channel = this.#options.BroadcastChannel ?? globalThis.BroadcastChannel;
    if (typeof Channel !== 'function') {
      console.error('resource-elements TabSyncManager: BroadcastChannel is not available here.');
      return () => {};
    }
    const channel = new Channel(this.#options.channel ?? 'resource-elements');
    /** True while a received change is applied: its actions are not sent back. */
    let receiving = false;
    // What writes committed since the last send: entity pks by type, and response keys. The
    // store logs what each write wrote while this asks it to, so finding them costs what was
    // written, not what the store holds.
    const { store } = controller;
    const stopLogging = store.logWrites();
    const written = new Map<string, Set<string>>();
    const keys = new Set<string>();
    let latest: StoreState | undefined;
    let scheduled = false;
    let detached = false;

    /** Told once: what structured clone refused is left out of every change after, unsaid. */
    let refusedTold = false;
    const send = (message: TabSyncMessage): void => {
      try {
        channel.postMessage(message);
        return;
      } catch (error) {
        // What the store holds may be more than structured clone takes (a field nested thousands
        // deep): the rest of the change is shared without it, rather than none of it.
        if (message.type === 'state') {
          const { state, left } = cloneable(message.state);
          try {
            if (left.length === 0) throw error;
            channel.postMessage({ type: 'state', state });
            if (!refusedTold) {
              console.error(
                `resource-elements TabSyncManager: ${left.join(', ')} could not be shared with ` +
                  'the other tabs (structured clone refused it); the rest of the change was.',
                error,
              );
            }
            refusedTold = true;
            return;
          } catch {
            // Not the data: fall through to the report below.
          }
        }
        console.error('resource-elements TabSyncManager: a change could not be shared.', error);
      }
    };

    // One send per microtask, however many writes.
    const flush = (): void => {
      scheduled = false;
      const state = latest;
      latest = undefined;
      if (detached || !state || (written.size === 0 && keys.size === 0)) return;
      const entities: Table<unknown> = {};
      const entitiesMeta: Table<unknown> = {};
      for (const [type, pks] of written) {
        const table = Object.hasOwn(state.entities, type) ? state.entities[type]! : {};
        const metaTable = Object.hasOwn(state.entitiesMeta, type) ? state.entitiesMeta[type]! : {};
        for (const pk of pks) {
          // Written, then collected before this send: nothing to share.
          if (!Object.hasOwn(table, pk) || !Object.hasOwn(metaTable, pk)) continue;
          define((entities[type] ??= {}), pk, table[pk]);
          define((entitiesMeta[type] ??= {}), pk, metaTable[pk]);
        }
      }
      const endpoints: Record<string, unknown> = {};
      const meta: Record<string, StoreState['meta'][string]> = {};
      for (const key of keys) {
        const responseMeta = Object.hasOwn(state.meta, key) ? state.meta[key] : undefined;
        if (!responseMeta) continue;
        define(endpoints, key, state.endpoints[key]);
        define(meta, key, responseMeta);
      }
      written.clear();
      keys.clear();
      send({
        type: 'state',
        state: encodeState({
          entities: entities as StoreState['entities'],
          entitiesMeta: entitiesMeta as StoreState['entitiesMeta'],
          endpoints,
          meta,
        }),
      });
    };

    const stopEvents = controller.events.subscribe((event: ControllerEvent) => {
      if (event.type !== 'action' || receiving) return;
      const { action } = event;
      if (action.type === 'reset') {
        written.clear();
        keys.clear();
        send({ type: 'reset' });
        return;
      }
      latest = event.state;
      if (action.type !== 'response/set' && action.type !== 'entities/set') return;
      const log = store.writtenBy(event.state);
      for (const family of [event.state.entities, event.state.entitiesMeta]) {
        for (const type in family) {
          const pks = log?.get(family[type]!);
          if (!pks) continue;
          let set = written.get(type);
          if (!set) written.set(type, (set = new Set()));
          for (const pk of pks) set.add(pk);
        }
      }
      if (action.type === 'response/set') keys.add(action.key);
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    });

    const name = this.#options.channel ?? 'resource-elements';
    channel.onmessage = (event: MessageEvent<TabSyncMessage>) => {
      const message = event.data;
      if (message?.type !== 'reset' && message?.type !== 'state') {
        // Another version of the app, or something else, on this channel.
        console.error(
          `resource-elements TabSyncManager: ignored a message on channel "${name}" that is not ` +
            `a change (${preview(message)}); is a tab of another version of the app open?`,
        );
        return;
      }
      receiving = true;
      try {
        if (message.type === 'reset') controller.resetEntireStore();
        else {
          // What a tab sent before it heard of our reset (a logout) was fetched before it: it is
          // the previous user's.
          const since = store.committed.lastReset;
          hydrate(controller, fetchedSince(decodeState(message.state), since));
        }
      } catch (error) {
        console.error(
          `resource-elements TabSyncManager: ignored a change from another tab on channel ` +
            `"${name}" that does not fit; the store is unchanged.`,
          error,
        );
      } finally {
        receiving = false;
      }
    };

    return () => {
      if (detached) return;
      detached = true;
      stopLogging();
      stopEvents();
      channel.onmessage = null;
      channel.close();
    };
  }
}

/**
 * The entities and responses of `state` that structured clone takes, and the names of those it
 * refused (`Todo 3`, a response's key).
 */
function cloneable(state: Partial<StoreState>): { state: Partial<StoreState>; left: string[] } {
  const left: string[] = [];
  const takes = (value: unknown, name: string): boolean => {
    try {
      structuredClone(value);
      return true;
    } catch {
      left.push(name);
      return false;
    }
  };
  const entities: Table<unknown> = {};
  const entitiesMeta: Table<unknown> = {};
  for (const type of Object.keys(state.entities ?? {})) {
    const rows = state.entities![type]!;
    for (const pk of Object.keys(rows)) {
      if (!takes(rows[pk], `${type} ${pk}`)) continue;
      define((entities[type] ??= {}), pk, rows[pk]);
      define((entitiesMeta[type] ??= {}), pk, state.entitiesMeta?.[type]?.[pk]);
    }
  }
  const endpoints: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  for (const key of Object.keys(state.endpoints ?? {})) {
    if (!takes(state.endpoints![key], key)) continue;
    define(endpoints, key, state.endpoints![key]);
    define(meta, key, state.meta?.[key]);
  }
  return {
    state: { entities, entitiesMeta, endpoints, meta } as Partial<StoreState>,
    left,
  };
}

/** What of a (checked) received state was fetched at or after `since`. */
function fetchedSince(state: Partial<StoreState>, since: number): Partial<StoreState> {
  const recent = <T>(
    table: Readonly<Record<string, T>> | undefined,
    fetchedAt: (key: string) => number | undefined,
  ): Record<string, T> => {
    const out: Record<string, T> = {};
    for (const key of Object.keys(table ?? {})) {
      if ((fetchedAt(key) ?? 0) >= since) define(out, key, table![key]);
    }
    return out;
  };
  const entities: Table<unknown> = {};
  for (const type of Object.keys(state.entities ?? {})) {
    const metas = own(state.entitiesMeta, type);
    const rows = recent(state.entities![type], (pk) => own(metas, pk)?.fetchedAt);
    // An empty table would still be written: a change of nothing, told to every reader.
    if (Object.keys(rows).length > 0) define(entities, type, rows);
  }
  const meta = state.meta ?? {};
  return {
    ...state,
    entities: entities as StoreState['entities'],
    endpoints: recent(state.endpoints, (key) => own(meta, key)?.fetchedAt),
    meta: recent(meta, (key) => meta[key]!.fetchedAt),
    errors: recent(state.errors, (key) => state.errors![key]!.fetchedAt),
  };
}

/** The own property `key` of `table`, never an inherited one (the keys are data). */
function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true });
}

/** A short text of what arrived, for the console. */
function preview(message: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch {
    // A structured clone may hold what JSON cannot (a Map, a cycle).
  }
  text ??= String(message);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
