/**
 * Reads and entities of the store as standard signals (the TC39 proposal, through
 * `signal-polyfill`, the implementation `@lit-labs/signals` uses). A signal subscribes to the
 * store only while something watches it, and lets go when the last watcher leaves.
 */
import { Signal } from 'signal-polyfill';
import { ReadStatus, ResponseObserver } from '../core/index.js';
import type {
  ControllerLike,
  EndpointLike,
  EntityClass,
  ObservedRead,
  ReadOptions,
  Resolved,
  StoreState,
} from '../core/index.js';
import { ProviderLink } from '../lit/provider-link.js';
import type { ResourceHost, ReadParams } from '../lit/resource-controller.js';

/** What a read signal holds: the same object while nothing in it changed. */
export interface ReadState<T> {
  readonly status: ReadStatus;
  /** The data to show: present while `status` is `'complete'`. */
  readonly value: T | undefined;
  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  readonly error: unknown;
  /** `value` is kept from an earlier read (the `keepPrevious` view) while this one loads. */
  readonly previous: boolean;
  /** A value is shown and a request of the read is in flight (refetch, poll, new args). */
  readonly refreshing: boolean;
}

/** A signal of one read, with a way to fetch it again. */
export interface ReadSignal<T> extends Signal.Computed<ReadState<T>> {
  /** Fetches the read again, even when fresh; settles once answered, never rejects. */
  refetch(): Promise<void>;
}

/**
 * A value, a signal of it, or a function that reads signals: the function runs again (and the
 * read follows) whenever a signal it read changes.
 */
export type SignalSource<T> = T | Signal.State<T> | Signal.Computed<T> | (() => T);

/**
 * Where the Controller comes from: a Controller, or an element inside a `<resource-provider>`
 * (its nearest provider's Controller, followed when the element moves).
 */
export type ControllerSource = ControllerLike | ResourceHost;

const PENDING: ReadState<never> = Object.freeze({
  status: ReadStatus.Pending,
  value: undefined,
  error: undefined,
  previous: false,
  refreshing: false,
});

/** `last` when it shows what `result` does, else a new state of it. */
function stateOf<T>(last: ReadState<T>, result: ObservedRead<T, unknown>): ReadState<T> {
  const { status, data: value, error, previous, refreshing } = result;
  return last.status === status &&
    last.value === value &&
    last.error === error &&
    last.previous === previous &&
    last.refreshing === refreshing
    ? last
    : { status, value, error, previous, refreshing };
}

/**
 * A Computed over the store. Watched, it is told of the store's changes that concern it, as any
 * Computed is by its sources. Unwatched, nothing listens to the store for it, so `get()` first
 * calls `unwatchedRead`, which marks it to be computed again: the read shows the store as it is
 * now (the result stays the same object while nothing in it changed).
 */
class StoreComputed<T> extends Signal.Computed<T> {
  readonly #unwatchedRead: () => void;
  constructor(computation: () => T, options: Signal.Options<T>, unwatchedRead: () => void) {
    super(computation, options);
    this.#unwatchedRead = unwatchedRead;
  }

  override get(): T {
    this.#unwatchedRead();
    return super.get();
  }
}

/** A State to bump: reading it makes a Computed compute again after each `bump()`. */
function newsState(): { read(): void; bump(): void } {
  let count = 0;
  const news = new Signal.State(count);
  return {
    read: () => void news.get(),
    // Untracked: a bump may come while some other signal computes or a Watcher watches.
    bump: () => Signal.subtle.untrack(() => news.set(++count)),
  };
}

function valueOf<T>(source: SignalSource<T> | undefined): T | undefined {
  if (source instanceof Signal.State || source instanceof Signal.Computed) return source.get();
  return typeof source === 'function' ? (source as () => T)() : source;
}

/** The Controller as a signal: an element's changes when its provider answers. */
function controllerOf(source: ControllerSource): { get(): ControllerLike | undefined } {
  if (!('addController' in source)) return { get: () => source };
  const controller = new Signal.State<ControllerLike | undefined>(undefined, {
    equals: Object.is,
  });
  const link = new ProviderLink(source, (answer) => controller.set(answer));
  // A provider may have answered while the link was made (a host already connected).
  if (link.bound) controller.set(link.bound);
  return controller;
}

/**
 * A signal of `endpoint(args)`: `{ status, value, error, previous, refreshing }`, as
 * `ResourceController` shows it; `options` takes a `view` (`resource-elements/views`).
 * While watched it is a live read (fetched when missing or stale, polled, kept from garbage
 * collection); unwatched it holds no subscription and only reads the store when asked. `args`
 * may be a signal or a function of signals; `null` reads nothing.
 *
 * @example
 * ```ts
 * class TodoTitle extends SignalWatcher(LitElement) {
 *   readonly id = signal(1);
 *   readonly todo = readSignal(this, TodoResource.get, () => ({ id: this.id.get() }));
 *   render() {
 *     return html`${watch(this.todo)}`; // or read this.todo.get().value in render
 *   }
 * }
 * ```
 */
export function readSignal<E extends EndpointLike, T = Resolved<E>>(
  source: ControllerSource,
  endpoint: E,
  args?: SignalSource<ReadParams<E> | null>,
  options?: ReadOptions<Resolved<E>, T>,
): ReadSignal<T> {
  const controller = controllerOf(source);
  const params = new Signal.Computed(() => valueOf(args));
  /** Bumped when the observer has news (or the store may have changed unseen). */
  const news = newsState();
  let observer: ResponseObserver<E, T> | undefined;
  let release: (() => void) | undefined;
  let watched = false;
  let computing = false;
  let last: ReadState<T> = PENDING;

  const tell = () => {
    // News while computing (a fetch that dispatched) is read by that computation already.
    if (!computing) news.bump();
  };
  /** Whether the observer's result is other than what the signal shows. */
  const outdated = () => {
    const result = observer?.result;
    return result !== undefined && stateOf(last, result) !== last;
  };
  const follow = (next: ControllerLike | undefined): ResponseObserver<E, T> | undefined => {
    if (observer?.controller === next) return observer;
    release?.();
    release = undefined;
    observer = next && new ResponseObserver<E, T>(next, options);
    if (observer && watched) release = observer.subscribe(tell);
    return observer;
  };

  const read = new StoreComputed<ReadState<T>>(
    () => {
      news.read();
      const current = follow(controller.get());
      let at: ReadParams<E> | null | undefined;
      try {
        at = params.get();
      } catch (error) {
        // The args could not be made (a signal they read threw): that is what the read shows.
        current?.setRead(null);
        if (last.status !== ReadStatus.Error || last.error !== error) {
          last = { ...PENDING, status: ReadStatus.Error, error };
        }
        return last;
      }
      if (!current) return PENDING;
      computing = true;
      try {
        Signal.subtle.untrack(() =>
          current.setRead(
            at === null ? (null as never) : endpoint,
            ...((at === undefined ? [] : [at]) as Parameters<E>),
          ),
        );
      } finally {
        computing = false;
      }
      return (last = stateOf(last, current.result));
    },
    {
      [Signal.subtle.watched]() {
        watched = true;
        if (observer) release = observer.subscribe(tell);
        // The store changed since it was last read unwatched: the next read computes again.
        if (outdated()) news.bump();
      },
      [Signal.subtle.unwatched]() {
        watched = false;
        release?.();
        release = undefined;
      },
    },
    () => {
      if (!watched) news.bump();
    },
  );
  return Object.assign(read, {
    refetch: () => observer?.refetch() ?? Promise.resolve(),
  });
}

/**
 * Per Controller: the entity signals watched on it, and the one store listener that tells them
 * (each looks at its own entity and changes only when that changed).
 */
/** Told the committed state when the Controller passes it (ours does), else undefined. */
type Refresh = (state: StoreState | undefined) => void;
const watching = new WeakMap<ControllerLike, { signals: Set<Refresh>; stop: () => void }>();

function watchStore(controller: ControllerLike, refresh: Refresh): () => void {
  let entry = watching.get(controller);
  if (!entry) {
    const signals = new Set<Refresh>();
    // ControllerLike promises a call, the Controller also passes the change: use it when given.
    const tellAll = (change?: { readonly state?: StoreState }) =>
      signals.forEach((tell) => tell(change?.state));
    const stop = controller.addListener(tellAll);
    watching.set(controller, (entry = { signals, stop }));
  }
  const { signals, stop } = entry;
  signals.add(refresh);
  return () => {
    signals.delete(refresh);
    if (signals.size === 0 && watching.get(controller)?.signals === signals) {
      watching.delete(controller);
      stop();
    }
  };
}

/**
 * A signal of one entity as the store holds it now (pending optimistic updates included), or
 * undefined while the store holds none or it was deleted. `params` are the fields its `pk()`
 * reads (`{ id: 1 }`), or a signal or function of them. The value is the very instance every
 * read of that entity shows, and it changes only when that entity (or an entity it nests)
 * changes. It never fetches: a read (a list, a `readSignal`) brings the entity in.
 *
 * @example
 * ```ts
 * class TodoRow extends SignalWatcher(LitElement) {
 *   @property({ type: Number }) todoId = 0;
 *   readonly todo = entitySignal(this, Todo, () => ({ id: this.todoId }));
 *   render() {
 *     return html`<span>${watch(this.label)}</span>`;
 *   }
 *   // Not `title`: HTMLElement has one.
 *   readonly label = new Signal.Computed(() => this.todo.get()?.title ?? '');
 * }
 * ```
 */
export function entitySignal<T extends EntityClass>(
  source: ControllerSource,
  entity: T,
  params: SignalSource<Record<string, unknown> | null | undefined>,
): Signal.Computed<InstanceType<T> | undefined> {
  const controller = controllerOf(source);
  const fields = new Signal.Computed(() => valueOf(params));
  // The pk of each params object, found once (params stay the same object until they change).
  const pks = new WeakMap<object, string>();
  const pkOf = (at: object): string => {
    let pk = pks.get(at);
    if (pk === undefined) pks.set(at, (pk = String(entity.pk(at))));
    return pk;
  };
  // An entity with no nested schema is the stored object alone: while that object and the
  // pending optimistic updates stay the same, so does what it reads as.
  const leaf = Object.keys(entity.schema).length === 0;
  // How the store is asked: a read of one entity by its pk, never sent (it has no URL).
  const refuse = () => Promise.reject(new TypeError(`${entity.key} is read from the store only`));
  const lookup = Object.assign(refuse, {
    schema: entity,
    sideEffect: false as const,
    run: refuse,
    key: (at: object) => `${entity.key} ${pkOf(at)}`,
  }) as unknown as EndpointLike<[object], InstanceType<T>>;
  const read = (current: ControllerLike | undefined, at: object | null | undefined) =>
    current && at ? current.getResponse(lookup, at).data : undefined;
  /** Bumped when the store's change changed this entity (or the store may have changed unseen). */
  const changed = newsState();
  let shown: InstanceType<T> | undefined;
  let stop: (() => void) | undefined;
  let on: ControllerLike | undefined;
  let watched = false;

  /** What the last change left of this entity: its stored object, and the optimistic list. */
  let seen: unknown;
  let optimistic: StoreState['optimistic'] | undefined;

  /** The params and pk the signal last read with (a store change reads with the same). */
  let at: Record<string, unknown> | null | undefined;
  let pk: string | undefined;

  const refresh = (state: StoreState | undefined) => {
    if (leaf && pk !== undefined && state) {
      const table = state.entities[entity.key];
      const stored = table && Object.hasOwn(table, pk) ? table[pk] : undefined;
      const same = stored === seen && state.optimistic === optimistic;
      seen = stored;
      optimistic = state.optimistic;
      if (same) return;
    }
    if (read(on, at) !== shown) changed.bump();
  };
  const listen = (next: ControllerLike | undefined) => {
    if (next === on && (stop !== undefined) === watched) return;
    stop?.();
    stop = undefined;
    on = next;
    if (next && watched) stop = watchStore(next, refresh);
  };

  return new StoreComputed(
    () => {
      changed.read();
      const current = controller.get();
      at = fields.get();
      pk = at ? pkOf(at) : undefined;
      listen(current);
      return (shown = Signal.subtle.untrack(() => read(current, at)));
    },
    {
      [Signal.subtle.watched]() {
        watched = true;
        // What the last change left is unknown after a time unwatched: the next change reads.
        seen = optimistic = undefined;
        listen(Signal.subtle.untrack(() => controller.get()));
        // The store changed since it was last read unwatched: the next read computes again.
        if (read(on, at) !== shown) changed.bump();
      },
      [Signal.subtle.unwatched]() {
        watched = false;
        listen(undefined);
      },
    },
    () => {
      if (!watched) changed.bump();
    },
  );
}
