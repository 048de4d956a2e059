/**
 * `<resource-provider>` attributes for the managers of this entry point:
 *
 * - `events="/api/events"`: a `PushManager` over `eventSource(url)`;
 * - `sync-tabs` (optionally `sync-tabs="channel-name"`): a `TabSyncManager`;
 * - `persist="app-v1"`: a `PersistManager` whose buster is the attribute's value
 *   (`persist-max-age="3600000"` sets its maxAge in ms). Its record is the registered `name`
 *   (default `'default'`), followed by `:` and the provider's `persist-name` or `id` when it has
 *   one: two providers that persist on one page each need one of them.
 *
 * - `offline-queue` (optionally `offline-queue="name"`): an `OfflineQueueManager` with the
 *   registered `offlineQueue` options. While mutations wait, the provider has the custom state
 *   `:state(pending-sync)`, its `pendingSync` property counts them, its `pendingMutations`
 *   property lists them (`QueuedMutation`s: `name` and `args` say what each changes), and it
 *   dispatches `resource-pending-sync` (`detail: { count, mutations }`) whenever the count
 *   changes, and `resource-sync-rejected` (`detail: { mutation, error }`) when the server
 *   refused one.
 *
 * They take effect once `registerProviderManagers()` ran, and are read when a provider first
 * connects. The managers attach while the provider is connected and detach when it leaves.
 */
import { Controller } from '../core/index.js';
import type { Manager } from '../core/index.js';
import { providerHooks } from '../provider/provider-hooks.js';
import { eventSource } from './event-source.js';
import { PersistManager } from './persist.js';
import type { PersistOptions } from './persist.js';
import { PushManager } from './push.js';
import type { PushManagerOptions } from './push.js';
import type { EntityRegistry } from './push-message.js';
import { TabSyncManager } from './tab-sync.js';
import { OfflineQueueManager } from './offline-queue.js';
import type { OfflineQueueOptions, OfflineQueueRejection } from './offline-queue.js';

/** Options of `registerProviderManagers()`. */
export interface ProviderManagersOptions {
  /** Entity classes by `static key`, for pushed messages (`events`). */
  entities?: EntityRegistry;
  /** More push options (backoff, timers). */
  push?: Omit<PushManagerOptions, 'source' | 'entities'>;
  /** More persistence options (name, throttle, storage…); the buster comes from `persist`. */
  persist?: Omit<PersistOptions, 'buster'>;
  /** The mutations `offline-queue` may keep, and its other options (its name: the attribute's). */
  offlineQueue?: OfflineQueueOptions;
  /** Constructors, for tests (counting or fake ones). Default: the page's. */
  EventSource?: typeof EventSource;
  BroadcastChannel?: typeof BroadcastChannel;
}

/**
 * Lets `events`, `sync-tabs` and `persist` on `<resource-provider>` turn managers on. Call it
 * before the providers connect (before `customElements.define` runs, or in the module that
 * defines your elements). A later call replaces the options for providers made after it.
 * @example
 * registerProviderManagers({ entities: { Todo, User } });
 * // <resource-provider events="/api/events" sync-tabs persist="app-v1">
 */
export function registerProviderManagers(options: ProviderManagersOptions = {}): void {
  const persists = new WeakMap<HTMLElement, PersistManager | null>();
  const built = new WeakMap<HTMLElement, Manager[]>();

  const persistFor = (provider: HTMLElement): PersistManager | undefined => {
    let persist = persists.get(provider);
    if (persist === undefined) {
      const buster = provider.getAttribute('persist');
      const maxAge = Number(provider.getAttribute('persist-max-age') ?? NaN);
      // One record per provider: its persist-name, else its id, after the registered name.
      const own = provider.getAttribute('persist-name') || provider.id;
      const name = options.persist?.name ?? 'default';
      persist =
        buster === null
          ? null
          : new PersistManager({
              ...options.persist,
              name: own ? `${name}:${own}` : name,
              buster,
              ...(Number.isFinite(maxAge) ? { maxAge } : {}),
            });
      persists.set(provider, persist);
    }
    return persist ?? undefined;
  };

  const build = (provider: HTMLElement): Manager[] => {
    const managers: Manager[] = [];
    const url = provider.getAttribute('events');
    if (url !== null) {
      if (!options.entities) {
        console.error(
          `<${provider.localName} events="${url}"> needs the entity classes pushed messages name: ` +
            'registerProviderManagers({ entities: { Todo, User } }).',
        );
      } else {
        managers.push(
          new PushManager({
            ...options.push,
            entities: options.entities,
            source: eventSource(url, { EventSource: options.EventSource }),
          }),
        );
      }
    }
    const channel = provider.getAttribute('sync-tabs');
    if (channel !== null) {
      managers.push(
        new TabSyncManager({
          ...(channel ? { channel } : {}),
          BroadcastChannel: options.BroadcastChannel,
        }),
      );
    }
    const persist = persistFor(provider);
    if (persist) managers.push(persist);
    return managers;
  };

  /** The provider's offline queue, shown on it: a state, a count and an event. */
  const queueFor = (provider: HTMLElement, states: Set<string> | undefined): Manager[] => {
    const name = provider.getAttribute('offline-queue');
    if (name === null) return [];
    if (!options.offlineQueue) {
      console.error(
        `<${provider.localName} offline-queue> needs the mutations it may keep: ` +
          "registerProviderManagers({ offlineQueue: { mutations: { 'todo.update': … } } }).",
      );
      return [];
    }
    const queue = new OfflineQueueManager({ ...options.offlineQueue, ...(name ? { name } : {}) });
    Object.defineProperty(provider, 'pendingSync', {
      configurable: true,
      get: () => queue.pending,
    });
    Object.defineProperty(provider, 'pendingMutations', {
      configurable: true,
      get: () => queue.waiting,
    });
    let shown = 0;
    queue.addEventListener('change', () => {
      const count = queue.pending;
      if (count === shown) return;
      shown = count;
      try {
        if (count > 0) states?.add('pending-sync');
        else states?.delete('pending-sync');
      } catch {
        // Chromium before 125 knows only dashed states.
        if (count > 0) states?.add('--pending-sync');
        else states?.delete('--pending-sync');
      }
      provider.dispatchEvent(
        new CustomEvent('resource-pending-sync', {
          detail: { count, mutations: queue.waiting },
        }),
      );
    });
    queue.addEventListener('rejected', (event) => {
      const { detail } = event as CustomEvent<OfflineQueueRejection>;
      provider.dispatchEvent(new CustomEvent('resource-sync-rejected', { detail }));
    });
    return [queue];
  };

  providerHooks.managers = {
    create(provider) {
      const persist = persistFor(provider);
      // Reads wait for the saved store (a short while at most) instead of racing it.
      return persist ? new Controller({ fetch: persist.gateFetch() }) : undefined;
    },
    connect(provider, controller, states) {
      if (typeof (controller as Partial<Controller>).events?.subscribe !== 'function') {
        console.error(
          `<${provider.localName}> managers need a Controller from resource-elements; ` +
            'this provider was given another object.',
        );
        return () => {};
      }
      let managers = built.get(provider);
      if (!managers) {
        managers = [...build(provider), ...queueFor(provider, states)];
        built.set(provider, managers);
      }
      const detach = managers.map((manager) => manager.attach(controller));
      return () => detach.forEach((stop) => stop());
    },
  };
}
