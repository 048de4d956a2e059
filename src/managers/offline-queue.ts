/**
 * Durable offline mutations as a manager: a registered mutation sent while offline (or, when its
 * entry opts in, one that failed to reach the server) is kept in a queue that outlives the page,
 * its optimistic effect still shown; after a reload it is shown again from the queue; once online
 * the queue is sent in order, each mutation once, by one tab at a time.
 *
 * How: the manager stands in for `controller.fetch` on the Controller it is attached to. A
 * registered mutation that must wait is written to the queue (a `PersistStorage` record, in
 * IndexedDB by default) and run through the Controller as a request whose sending waits its turn:
 * online, every older one settled, and the queue's Web Lock held. Under that lock the tab reads
 * the queue again: a mutation another tab already sent is not sent twice; the answer that tab
 * recorded is replayed here instead, so every tab's store ends the same. An answer of 4xx rolls
 * that mutation back alone (the Controller drops its optimistic update, as for any failure) and
 * is reported; a connection failure or a 5xx keeps it queued for the next try. The tabs open
 * together tell each other, on a BroadcastChannel, when the queue changed (IndexedDB has no change
 * event): each reads it again, shows what another tab queued as its own, and replays an answer
 * another tab recorded at once, online or not.
 */
import type { Controller, EndpointLike, Manager, RunContext } from '../core/index.js';
import { indexedDbStorage } from './storage.js';
import type { PersistStorage } from './storage.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** How one mutation is queued. */
export interface QueuedMutationOptions {
  readonly endpoint: EndpointLike;
  /**
   * A header sent with a unique key per mutation, the same on every try (`'Idempotency-Key'`):
   * a server that honours it applies a mutation once even if a tab died after sending it.
   */
  readonly idempotencyHeader?: string;
  /** Also queue it when it fails to reach the server while the page thinks it is online. */
  readonly queueOnNetworkError?: boolean;
}

/** Options of `OfflineQueueManager`. */
export interface OfflineQueueOptions {
  /**
   * The mutations that may be queued, by a name that stays the same across releases (it is
   * stored with each queued mutation): an endpoint, or its options.
   */
  readonly mutations: Readonly<Record<string, EndpointLike | QueuedMutationOptions>>;
  /** The queue's record and Web Lock name (default `'default'`): one queue per name. */
  readonly name?: string;
  /** Where the queue is kept (default: IndexedDB, database `resource-elements`). */
  readonly storage?: PersistStorage;
  /** Web Locks (default `navigator.locks`); without them each tab sends its own mutations. */
  readonly locks?: LockManager | null;
  /**
   * The BroadcastChannel constructor the tabs tell each other with when the queue changed
   * (default: the host's); `null`: none, so a tab sees what another queued once it loads again.
   */
  readonly BroadcastChannel?: typeof BroadcastChannel | null;
  /** How long a sent mutation's answer is kept for other tabs to replay, ms (default 60,000). */
  readonly keepAnswers?: number;
  /** Waits between tries after a connection failure or a 5xx, ms (default 1,000 doubling to 30,000). */
  readonly retryDelay?: (tries: number) => number;
}

/** One mutation in the queue, as stored (plain data). */
export interface QueuedMutation {
  readonly id: string;
  /** Its name in `mutations`. */
  readonly name: string;
  readonly args: readonly unknown[];
  /** When it was queued (the page's clock). */
  readonly at: number;
  /** The server's answer, once one tab sent it: replayed by the others. */
  answer?: RecordedAnswer;
}

/** What the server answered a queued mutation: enough to replay it in another tab. */
export interface RecordedAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string | null;
  readonly body: string;
  /** When it was recorded; dropped `keepAnswers` later. */
  readonly at: number;
}

/** `rejected`: the server refused a queued mutation (4xx); it was rolled back. */
export interface OfflineQueueRejection {
  readonly mutation: QueuedMutation;
  readonly error: unknown;
}

const VERSION = 1;
interface QueueRecord {
  readonly version: number;
  readonly mutations: QueuedMutation[];
}

const newId = (): string =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * @example
 * ```ts
 * const queue = new OfflineQueueManager({
 *   mutations: {
 *     'todo.create': { endpoint: TodoResource.getList.push, idempotencyHeader: 'Idempotency-Key' },
 *     'todo.update': TodoResource.partialUpdate,
 *   },
 * });
 * const controller = new Controller({ managers: [queue] });
 * queue.addEventListener('change', () => console.log(queue.pending, 'to sync'));
 * ```
 */
export class OfflineQueueManager extends EventTarget implements Manager {
  readonly #byEndpoint = new Map<EndpointLike, { name: string } & QueuedMutationOptions>();
  readonly #byName = new Map<string, QueuedMutationOptions>();
  readonly #storage: PersistStorage;
  readonly #record: string;
  readonly #lockName: string;
  readonly #locks: LockManager | null;
  readonly #Channel: typeof BroadcastChannel | undefined;
  /** Open while attached: told after this tab changed the queue, telling of the other tabs'. */
  #channel: BroadcastChannel | undefined;
  readonly #keep: number;
  readonly #delay: (tries: number) => number;
  /** The queued mutations this tab shows (its own, other tabs'), oldest first, until settled. */
  readonly #waiting: QueuedMutation[] = [];
  /** Ids of waiting mutations another tab answered: their answer is replayed at once. */
  readonly #elsewhere = new Set<string>();
  /** Per waiting mutation, while its send waits (for the network, or to try again): wakes it. */
  readonly #wakers = new Map<string, () => void>();
  /** The end of this tab's send chain: each mutation sends after the one before settled. */
  #turn: Promise<unknown> = Promise.resolve();
  /**
   * The Controller while attached: whether the network is there is its `isOnline`, read at each
   * send (detached, nothing more is sent).
   */
  #controller: Controller | undefined;
  /** Sends waiting for the network: woken by the Controller's `online` event. */
  #wake: (() => void)[] = [];
  /** The end of this tab's chain of holds on the queue (reads and writes of it, sends). */
  #holding: Promise<unknown> = Promise.resolve();
  /** Per queued mutation: written to the queue (it is sent only then). */
  readonly #saved = new Map<string, Promise<unknown>>();

  constructor(options: OfflineQueueOptions) {
    super();
    for (const [name, entry] of Object.entries(options.mutations)) {
      const spec = typeof entry === 'function' ? { endpoint: entry } : entry;
      if (!spec?.endpoint?.sideEffect) {
        throw new TypeError(`OfflineQueueManager: mutations.${name} is not a mutation endpoint`);
      }
      this.#byName.set(name, spec);
      this.#byEndpoint.set(spec.endpoint, { name, ...spec });
    }
    this.#storage = options.storage ?? indexedDbStorage();
    const name = options.name ?? 'default';
    this.#record = `queue:${name}`;
    this.#lockName = `resource-elements-queue:${name}`;
    this.#locks =
      options.locks === undefined ? (globalThis.navigator?.locks ?? null) : options.locks;
    this.#Channel =
      options.BroadcastChannel === undefined
        ? globalThis.BroadcastChannel
        : (options.BroadcastChannel ?? undefined);
    this.#keep = options.keepAnswers ?? 60_000;
    this.#delay = options.retryDelay ?? ((tries) => Math.min(30_000, 1_000 * 2 ** tries));
  }

  /**
   * Mutations waiting to be sent or answered: this tab's, and those the other tabs open (or
   * earlier pages) queued.
   */
  get pending(): number {
    return this.#waiting.length;
  }

  /**
   * The mutations `pending` counts, oldest first (a copy, read when `change` fires): each one's
   * `name` and `args` say what it changes, so a view can mark what waits to sync.
   */
  get waiting(): readonly QueuedMutation[] {
    return [...this.#waiting];
  }

  attach(controller: Controller): () => void {
    const original = controller.fetch;
    const send = (endpoint: EndpointLike, ...args: unknown[]): Promise<unknown> =>
      (original as (this: Controller, ...all: unknown[]) => Promise<unknown>).call(
        controller,
        endpoint,
        ...args,
      );
    // Online or not is the Controller's to say (`isOnline`, read at each send): nothing here
    // keeps it, and nothing reads navigator.onLine.
    this.#controller = controller;
    let attached = true;
    const stopEvents = controller.events.subscribe((event) => {
      if (event.type === 'online') this.#wake.splice(0).forEach((wake) => wake());
    });

    const issue = (mutation: QueuedMutation, spec: QueuedMutationOptions): Promise<unknown> => {
      this.#waiting.push(mutation);
      this.#changed();
      const settled = () => {
        this.#waiting.splice(this.#waiting.indexOf(mutation), 1);
        this.#elsewhere.delete(mutation.id);
        this.#changed();
      };
      const run = send(this.#held(mutation, spec), ...mutation.args);
      void run.then(settled, (error: unknown) => {
        settled();
        if ((error as { status?: unknown } | null)?.status !== undefined) {
          this.dispatchEvent(
            new CustomEvent<OfflineQueueRejection>('rejected', { detail: { mutation, error } }),
          );
          if (DEV()) {
            console.error(
              `resource-elements OfflineQueueManager: the server refused the queued ${mutation.name}; it was rolled back.`,
              error,
            );
          }
        }
      });
      return run;
    };

    const enqueue = (name: string, spec: QueuedMutationOptions, args: unknown[]) => {
      const mutation: QueuedMutation = { id: newId(), name, args, at: Date.now() };
      // Shown at once (the optimistic update is applied as the request starts); sent only once
      // it is in the queue (its turn reads the queue, see #held).
      const saved = this.#update((list) => [...list, mutation]);
      saved.then(
        () => this.#tell(),
        (error: unknown) => console.error('OfflineQueueManager: not saved', error),
      );
      this.#saved.set(mutation.id, saved);
      return issue(mutation, spec);
    };

    const intercept = ((endpoint: EndpointLike, ...args: unknown[]) => {
      const spec = this.#byEndpoint.get(endpoint);
      if (!spec) return send(endpoint, ...args);
      if (!controller.isOnline || this.#waiting.length > 0) return enqueue(spec.name, spec, args);
      const sent = send(endpoint, ...args);
      if (!spec.queueOnNetworkError) return sent;
      return sent.catch((error: unknown) => {
        // No status and not aborted: the server was not reached. Queue it instead.
        const e = error as { status?: unknown; name?: unknown } | null;
        if (e?.status !== undefined || e?.name === 'AbortError') throw error;
        return enqueue(spec.name, spec, args);
      });
    }) as Controller['fetch'];
    controller.fetch = intercept;

    /**
     * Reads the queue again (holding it, so that this tab's own writes are in): what earlier
     * pages or the other tabs queued is shown and sent in its turn like this tab's own; a
     * mutation this tab shows that another tab answered is woken to replay that answer.
     */
    const adopt = () =>
      this.#locked(async () => {
        const list = await this.#read();
        if (!attached) return;
        const shown = new Set(this.#waiting.map((mutation) => mutation.id));
        for (const mutation of list) {
          const spec = this.#byName.get(mutation.name);
          if (shown.has(mutation.id)) {
            if (!mutation.answer) continue;
            this.#elsewhere.add(mutation.id);
            this.#wakers.get(mutation.id)?.();
          } else if (!mutation.answer && spec) {
            this.#saved.set(mutation.id, Promise.resolve());
            issue(mutation, spec).catch(() => {});
          }
        }
      });
    const Channel = this.#Channel;
    const channel = Channel && new Channel(this.#lockName);
    if (channel) channel.onmessage = () => void adopt().catch(() => {});
    this.#channel = channel;
    // What earlier pages left in the queue: shown again, and sent in their turn.
    adopt().catch(() => {});

    return () => {
      attached = false;
      if (channel) {
        channel.onmessage = null;
        channel.close();
      }
      if (this.#channel === channel) this.#channel = undefined;
      stopEvents();
      if (controller.fetch === intercept) controller.fetch = original;
      if (this.#controller === controller) this.#controller = undefined;
    };
  }

  #changed(): void {
    this.dispatchEvent(new Event('change'));
  }

  /** Tells the other tabs that the stored queue changed (they read it again). */
  #tell(): void {
    this.#channel?.postMessage('changed');
  }

  async #read(): Promise<QueuedMutation[]> {
    const record = (await this.#storage.get(this.#record)) as QueueRecord | undefined;
    return record?.version === VERSION && Array.isArray(record.mutations) ? record.mutations : [];
  }

  /** Changes the stored queue under the lock. */
  #update(change: (list: QueuedMutation[]) => QueuedMutation[]): Promise<QueuedMutation[]> {
    return this.#locked(() => this.#change(change));
  }

  /** Changes the stored queue (answers older than `keepAnswers` dropped); the caller holds it. */
  async #change(change: (list: QueuedMutation[]) => QueuedMutation[]): Promise<QueuedMutation[]> {
    const now = Date.now();
    const list = change(await this.#read()).filter(
      (mutation) => !mutation.answer || now - mutation.answer.at < this.#keep,
    );
    await this.#storage.set(this.#record, { version: VERSION, mutations: list });
    return list;
  }

  /** Runs `work` holding the queue: after this tab's earlier holds, and under the Web Lock. */
  #locked<T>(work: () => Promise<T>): Promise<T> {
    const locks = this.#locks;
    const run = this.#holding.then(() =>
      locks ? (locks.request(this.#lockName, work) as Promise<T>) : work(),
    );
    this.#holding = run.catch(() => {});
    return run;
  }

  /**
   * The mutation as the Controller runs it: its endpoint, but sending waits its turn, adds the
   * idempotency key, and records the answer (or replays one another tab recorded).
   */
  #held(mutation: QueuedMutation, spec: QueuedMutationOptions): EndpointLike {
    const endpoint = spec.endpoint;
    const run = (args: readonly unknown[], context: RunContext = {}) => {
      // Until it is sent, what it changes shows above every read (the server has not seen it).
      context.sending?.(Infinity);
      const turn = this.#turn.then(() => this.#send(mutation, spec, args, context));
      this.#turn = turn.catch(() => {});
      return turn;
    };
    // A plain object: the Controller reads these members and never calls the endpoint itself.
    return {
      ...pick(endpoint),
      key: (...args: unknown[]) => endpoint.key(...args),
      run,
      ...(endpoint.getOptimisticResponse
        ? {
            getOptimisticResponse: (...rest: unknown[]) =>
              (endpoint.getOptimisticResponse as (...r: unknown[]) => unknown).apply(
                endpoint,
                rest,
              ),
          }
        : {}),
    } as unknown as EndpointLike;
  }

  async #send(
    mutation: QueuedMutation,
    spec: QueuedMutationOptions,
    args: readonly unknown[],
    context: RunContext,
  ): Promise<unknown> {
    await this.#saved.get(mutation.id);
    const signal = context.signal;
    const { id } = mutation;
    /**
     * Resolves after `ms`, or when online with no time given, or at once when another tab
     * answered it; rejects when the request is aborted.
     */
    const wait = (ms?: number) =>
      new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const end = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stop);
          const at = this.#wake.indexOf(go);
          if (at >= 0) this.#wake.splice(at, 1);
          if (this.#wakers.get(id) === go) this.#wakers.delete(id);
        };
        const go = () => {
          end();
          resolve();
        };
        const stop = () => {
          end();
          reject(signal!.reason);
        };
        if (signal?.aborted) return stop();
        if (this.#elsewhere.has(id)) return resolve();
        signal?.addEventListener('abort', stop, { once: true });
        this.#wakers.set(id, go);
        if (ms === undefined) this.#wake.push(go);
        else timer = setTimeout(go, ms);
      });
    for (let tries = 0; ; tries++) {
      // Offline it waits for the network, unless another tab answered it: that answer is
      // replayed below, which needs no network.
      while (!this.#controller?.isOnline && !this.#elsewhere.has(id)) await wait();
      let retry = false;
      const result = await this.#locked(async () => {
        const stored = (await this.#read()).find((entry) => entry.id === mutation.id);
        const fetch = context.fetch ?? globalThis.fetch;
        const replay = stored?.answer;
        const sendOnce: typeof globalThis.fetch = async (input, init) => {
          if (replay) {
            const empty = replay.status === 204 || replay.status === 205 || replay.status === 304;
            return new Response(empty ? null : replay.body, {
              status: replay.status,
              statusText: replay.statusText,
              headers: replay.contentType ? { 'content-type': replay.contentType } : {},
            });
          }
          const headers = new Headers(init?.headers);
          if (spec.idempotencyHeader) headers.set(spec.idempotencyHeader, mutation.id);
          let response: Response;
          try {
            response = await fetch(input, { ...init, headers });
          } catch (error) {
            retry = true;
            throw error;
          }
          if (response.status >= 500) {
            retry = true;
            return response;
          }
          const answer: RecordedAnswer = {
            status: response.status,
            statusText: response.statusText,
            contentType: response.headers.get('content-type'),
            body: await response.clone().text(),
            at: Date.now(),
          };
          // Held already (this send runs under the lock): changed in place, not queued behind it.
          await this.#change((list) =>
            list.map((entry) => (entry.id === mutation.id ? { ...entry, answer } : entry)),
          );
          this.#tell();
          return response;
        };
        if (!stored) {
          // Gone from the queue: sent by another tab whose answer is no longer kept.
          throw new Error(`${mutation.name} was sent from another tab`);
        }
        // Sent now: its answer (and its optimistic update until then) is newer than the reads
        // made while it waited, such as the list a reloaded page fetched.
        context.sending?.();
        try {
          return { value: await spec.endpoint.run(args as never, { ...context, fetch: sendOnce }) };
        } catch (error) {
          if (!retry) throw error;
          return undefined;
        }
      });
      if (result) return result.value;
      // Not applied by the server: until it is sent again, it shows above every read again.
      context.sending?.(Infinity);
      await wait(this.#delay(tries));
    }
  }
}

/** The plain options of an endpoint the Controller reads. */
function pick(endpoint: EndpointLike): Partial<EndpointLike> {
  return {
    name: endpoint.name,
    schema: endpoint.schema,
    sideEffect: endpoint.sideEffect,
    dataExpiryLength: endpoint.dataExpiryLength,
    errorExpiryLength: endpoint.errorExpiryLength,
  };
}
