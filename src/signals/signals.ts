/**
 * Reads and entities of the store as standard signals (the TC39 proposal, through
 * `signal-polyfill`, the implementation `@lit-labs/signals` uses). A signal subscribes to the
 * store only while something watches it, and lets go when the last watcher leaves.
 */
import { Signal } from 'signal-polyfill';
import { ReadStatus, ResponseObserver } from '../core/index.js';
import type { ControllerLike, EndpointLike, EntityClass, Resolved } from '../core/index.js';
import { ProviderLink } from '../lit/provider-link.js';
import type { ResourceHost, ReadParams } from '../lit/resource-controller.js';

/** What a read signal holds: the same object while nothing in it changed. */
export interface ReadState<T> {
  readonly status: ReadStatus;
  /** The data to show: present while `status` is `'complete'`. */
  readonly value: T | undefined;
  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  readonly error: unknown;
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
});

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
  if (link.controller) controller.set(link.controller);
  return controller;
}

/**
 * A signal of `endpoint(args)`: `{ status, value, error }`, as `ResourceController` shows it.
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
export function readSignal<E extends EndpointLike>(
  source: ControllerSource,
  endpoint: E,
  args?: SignalSource<ReadParams<E> | null>,
): ReadSignal<Resolved<E>> {
  const controller = controllerOf(source);
  const params = new Signal.Computed(() => valueOf(args));
  /** Bumped when the observer has news; read by the signal so that it computes again. */
  const news = new Signal.State(0);
  let observer: ResponseObserver<E> | undefined;
  let release: (() => void) | undefined;
  let watched = false;
  let computing = false;
  let last: ReadState<Resolved<E>> = PENDING;

  const tell = () => {
    // News while computing (a fetch that dispatched) is read by that computation already.
    if (!computing) news.set(news.get() + 1);
  };
  const follow = (next: ControllerLike | undefined): ResponseObserver<E> | undefined => {
    if (observer?.controller === next) return observer;
    release?.();
    release = undefined;
    observer = next && new ResponseObserver<E>(next);
    if (observer && watched) release = observer.subscribe(tell);
    return observer;
  };

  const read = new Signal.Computed<ReadState<Resolved<E>>>(
    () => {
      news.get();
      const current = follow(controller.get());
      let at: ReadParams<E> | null | undefined;
      try {
        at = params.get();
      } catch (error) {
        // The args could not be made (a signal they read threw): that is what the read shows.
        current?.setRead(undefined, null);
        return (last = { status: ReadStatus.Error, value: undefined, error });
      }
      if (!current) return PENDING;
      computing = true;
      try {
        Signal.subtle.untrack(() =>
          current.setRead(endpoint, at === null ? null : at === undefined ? [] : [at]),
        );
      } finally {
        computing = false;
      }
      const { status, data, error } = current.result;
      if (last.status !== status || last.value !== data || last.error !== error) {
        last = { status, value: data, error };
      }
      return last;
    },
    {
      [Signal.subtle.watched]() {
        watched = true;
        if (observer) release = observer.subscribe(tell);
      },
      [Signal.subtle.unwatched]() {
        watched = false;
        release?.();
        release = undefined;
      },
    },
  ) as ReadSignal<Resolved<E>>;
  read.refetch = () => observer?.refetch() ?? Promise.resolve();
  return read;
}

/** Per Controller: one store listener for all its watched entity signals, and what it bumps. */
interface StoreClock {
  readonly changes: Signal.State<number>;
  watchers: number;
  stop?: (() => void) | undefined;
}
const clocks = new WeakMap<ControllerLike, StoreClock>();

function clockOf(controller: ControllerLike): StoreClock {
  let clock = clocks.get(controller);
  if (!clock) clocks.set(controller, (clock = { changes: new Signal.State(0), watchers: 0 }));
  return clock;
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
  // How the store is asked: a read of one entity by its pk, never sent (it has no URL).
  const lookup = Object.assign(() => Promise.reject(new TypeError(`${entity.key} is a lookup`)), {
    schema: entity,
    sideEffect: false as const,
    key: (at: object) => `${entity.key} ${String(entity.pk(at))}`,
    run: () => Promise.reject(new TypeError(`${entity.key} is a lookup`)),
  }) as unknown as EndpointLike<[object], InstanceType<T>>;
  let counted: StoreClock | undefined;
  let watched = false;

  const count = (next: ControllerLike | undefined) => {
    const clock = next && clockOf(next);
    if (clock === counted) return;
    if (counted && --counted.watchers === 0) {
      counted.stop?.();
      counted.stop = undefined;
    }
    counted = clock;
    if (clock && clock.watchers++ === 0) {
      clock.stop = next!.addListener(() => clock.changes.set(clock.changes.get() + 1));
    }
  };

  return new Signal.Computed(
    () => {
      const current = controller.get();
      if (watched) count(current);
      const at = fields.get();
      if (!current || !at) return undefined;
      clockOf(current).changes.get();
      return Signal.subtle.untrack(() => current.getResponse(lookup, at).data);
    },
    {
      [Signal.subtle.watched]() {
        watched = true;
        count(Signal.subtle.untrack(() => controller.get()));
      },
      [Signal.subtle.unwatched]() {
        watched = false;
        count(undefined);
      },
    },
  );
}
