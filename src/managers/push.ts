/**
 * Server push as a manager: follows a source of `PushMessage`s (Server-Sent Events, a WebSocket,
 * anything that implements `PushSource`) and writes each change into the store, so one pushed
 * entity updates every view that shows it. When the connection drops it reconnects with
 * exponential backoff, resuming after the last message id it saw; when the source says it missed
 * changes it cannot replay, what is shown is fetched again.
 *
 * Messages are queued as they arrive and applied together, in order, in one store commit on the
 * next timer: a burst (a replay after reconnecting) re-renders its views once, not once per
 * message. A timer, not a microtask: a browser runs microtasks after each event listener, so
 * Server-Sent Events dispatched in one task would each get their own. A flush that has worked
 * `SLICE` ms commits what it applied and leaves the rest to the next timer, so the page can paint
 * and answer input between parts of a long burst.
 */
import type { Controller, ControllerEvent, EndpointLike, Manager, Timers } from '../core/index.js';
import { applyPushMessage } from './push-message.js';
import type { EntityRegistry, PushMessage } from './push-message.js';

/** What a manager gives a source when it connects. */
export interface PushHandlers {
  /** The id of the last message received: send it to the server to resume after it. */
  readonly lastEventId: string | undefined;
  /**
   * Call when the connection is up: the backoff starts over. A connection that then drops within
   * 5 s was not up for long: each further such connection in a row doubles the next delay, so a
   * server that accepts and at once closes is not asked again every second.
   */
  open(): void;
  /** Call with every message received. */
  message(message: PushMessage): void;
  /** Call when the connection is lost or cannot be made: the manager closes it and retries. */
  error(error?: unknown): void;
}

/** An open connection, as far as the manager needs it. */
export interface PushConnection {
  /** Ends the connection: no message arrives after it. */
  close(): void;
}

/**
 * Opens one connection. A WebSocket source, for instance:
 * @example
 * const webSocket: PushSource = (handlers) => {
 *   const socket = new WebSocket(`wss://example.com/changes?after=${handlers.lastEventId ?? ''}`);
 *   socket.onopen = () => handlers.open();
 *   socket.onmessage = (event) => handlers.message(JSON.parse(event.data));
 *   socket.onclose = () => handlers.error();
 *   return { close: () => socket.close() };
 * };
 */
export type PushSource = (handlers: PushHandlers) => PushConnection;

/** Options of `new PushManager()`. */
export interface PushManagerOptions {
  /** Where messages come from: e.g. `eventSource('/api/events')`. */
  source: PushSource;
  /** Entity classes by `static key`, e.g. `{ Todo, User }`. */
  entities: EntityRegistry;
  /** First reconnect delay in ms, doubled after each failed attempt. Default 1000. */
  initialDelay?: number;
  /** Longest reconnect delay in ms. Default 30 000. */
  maxDelay?: number;
  /**
   * Timer functions for reconnecting and for applying queued messages (tests pass fake ones).
   * Default: the Controller's (`controller.timers`).
   */
  timers?: Timers;
}

/** A connection up this long (ms) counts as stable: the drops in a row are forgotten. */
const STABLE_AFTER = 5000;

/** Work (ms, on the Controller's clock) a flush does before it commits and yields. */
const SLICE = 8;

/**
 * What the last event id is once `message` is applied: its own id (a finite number as its text);
 * after a gap or reset without one, none (resuming from before it would only say "gap" again).
 * A source may hand on whatever arrived (JSON `null` too): only an object has an id.
 */
function idAfter(last: string | undefined, message: PushMessage): string | undefined {
  const id: unknown = message?.id;
  if (typeof id === 'string') return id;
  if (Number.isFinite(id)) return String(id);
  return message?.type === 'gap' || message?.type === 'reset' ? undefined : last;
}

interface ShownRead {
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  count: number;
}

/**
 * @example
 * const push = new PushManager({ source: eventSource('/api/events'), entities: { Todo, User } });
 * const controller = new Controller({ managers: [push] });
 */
export class PushManager implements Manager {
  readonly #options: PushManagerOptions;
  /** Kept across detach and attach, so a provider moved in the page resumes where it was. */
  #lastEventId: string | undefined;

  constructor(options: PushManagerOptions) {
    this.#options = options;
  }

  /** The id of the last message applied (one still queued is not). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /**
   * Opens the connection and writes what it pushes into `controller`'s store; returns the
   * function that closes it (the Controller calls it on `dispose()`).
   * @example new Controller({ managers: [new PushManager({ source: eventSource('/api/events'), entities: { Todo } })] });
   */
  attach(controller: Controller): () => void {
    const { source, entities } = this.#options;
    const initialDelay = this.#options.initialDelay ?? 1000;
    const maxDelay = this.#options.maxDelay ?? 30_000;
    const timers: Timers = this.#options.timers ?? controller.timers;
    const shown = new Map<string, ShownRead>();
    // Received, not yet applied, in order; `flushing` is the timer that applies them.
    let queue: PushMessage[] = [];
    let flushing: unknown;
    // The id the last received message leaves (`idAfter`): a new connection resumes after it,
    // since what is queued is still applied, before anything the new one sends.
    let received = this.#lastEventId;
    let attached = true;
    let connection: PushConnection | undefined;
    // Counts connections, and detach: only the handlers of the latest connection, while
    // attached, act.
    let generation = 0;
    let retry: unknown;
    let attempts = 0;
    // Connections in a row that opened and dropped before they were stable, and the timer that
    // says the open one is.
    let drops = 0;
    let stable: unknown;

    const revalidateShown = (): void => {
      // Unshown responses may be out of date too: invalid, so they are fetched when next shown.
      controller.invalidateAll((key) => !shown.has(key));
      for (const { endpoint, args } of shown.values()) {
        controller.refetch(endpoint, ...(args as never[])).catch(() => {});
      }
    };

    /** Applies one message; one that does not fit is reported and changes nothing. */
    const apply = (message: PushMessage): void => {
      try {
        if (message?.type === 'gap' || message?.type === 'reset') revalidateShown();
        else applyPushMessage(controller, entities, message);
      } catch (error) {
        console.error(
          `resource-elements PushManager: pushed message ${describeMessage(message)} was not ` +
            `applied (${error instanceof Error ? error.message : String(error)}); the store ` +
            'keeps what it had.',
          error,
        );
      }
      this.#lastEventId = idAfter(this.#lastEventId, message);
    };

    /** Applies the queue in one commit, or what `SLICE` ms allow; a timer takes the rest. */
    const flush = (): void => {
      flushing = undefined;
      const start = controller.now();
      let done = 0;
      controller.batch(() => {
        while (attached && done < queue.length) {
          apply(queue[done++]!);
          if (controller.now() - start >= SLICE) break;
        }
      });
      // A listener told of the commit may have detached the manager (then the queue is gone), or
      // handed the source a message (then its timer is set already).
      queue = queue.slice(done);
      if (attached && queue.length > 0) flushing ??= timers.setTimeout(flush, 0);
    };

    const connect = (): void => {
      retry = undefined;
      // Each connection gets its own handlers: a late call from a closed one (or from the one
      // open when the manager was detached) changes nothing.
      const mine = ++generation;
      const current = (): boolean => mine === generation;
      let opened = false;
      const handlers: PushHandlers = {
        lastEventId: received,
        open: () => {
          if (!current() || opened) return;
          opened = true;
          attempts = 0;
          stable = timers.setTimeout(() => {
            stable = undefined;
            drops = 0;
          }, STABLE_AFTER);
        },
        message: (message) => {
          if (!current()) return;
          queue.push(message);
          received = idAfter(received, message);
          flushing ??= timers.setTimeout(flush, 0);
        },
        error: () => {
          if (!current()) return;
          generation++;
          connection?.close();
          connection = undefined;
          if (stable !== undefined) {
            timers.clearTimeout(stable);
            stable = undefined;
            drops++;
          } else if (!opened) {
            // A connection that never opened ends the row: the server was not reached.
            drops = 0;
          }
          // The first early drop waits the first delay; each further one in a row doubles it.
          const delay = Math.min(maxDelay, initialDelay * 2 ** (attempts + Math.max(0, drops - 1)));
          attempts++;
          retry = timers.setTimeout(connect, delay);
        },
      };
      try {
        connection = source(handlers);
      } catch (error) {
        console.error('resource-elements PushManager: the source failed to connect.', error);
        handlers.error(error);
        return;
      }
      // A source that failed synchronously (handlers.error above) already scheduled a retry.
      if (!current()) {
        connection.close();
        connection = undefined;
      }
    };

    const stopEvents = controller.events.subscribe((event: ControllerEvent) => {
      if (event.type !== 'subscription') return;
      const read = shown.get(event.key);
      if (event.phase === 'add') {
        if (read) read.count++;
        else shown.set(event.key, { endpoint: event.endpoint, args: event.args, count: 1 });
      } else if (read && --read.count === 0) {
        shown.delete(event.key);
      }
    });
    connect();

    return () => {
      generation++;
      stopEvents();
      // What is queued is dropped: `lastEventId` is still the last applied, so a re-attach
      // resumes before it and the server sends it again.
      attached = false;
      queue = [];
      if (flushing !== undefined) timers.clearTimeout(flushing);
      if (retry !== undefined) timers.clearTimeout(retry);
      if (stable !== undefined) timers.clearTimeout(stable);
      retry = stable = flushing = undefined;
      connection?.close();
      connection = undefined;
    };
  }
}

/** `42 (upsert Todo 7)`: which event, which entity, for error messages. */
function describeMessage(message: unknown): string {
  if (message === null || typeof message !== 'object') return String(message);
  const { id, type, entity, pk, data } = message as Record<string, unknown>;
  const key =
    pk ?? (data && typeof data === 'object' ? (data as Record<string, unknown>).id : undefined);
  const what = [type, entity, key].filter((part) => part !== undefined).map(String);
  return `${id === undefined ? '(no id)' : String(id)} (${what.join(' ')})`;
}
