/**
 * One request's whole life, from the call to its settled promise: dedupe (joining an identical
 * read in flight), the optimistic entry, the attempts and the waits between them, the commit in
 * request order, and the value the caller gets. The Controller's facade hands every request here,
 * so a reset or a dispose reaches each of them (`release`, `endWaits`).
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { Denormalizer } from '../normalize/denormalizer.js';
import { visitEntities } from '../normalize/visit-entities.js';
import { INVALID } from '../schema/types.js';
import { getOwn, hasOwn } from '../util/own.js';
import { shortUrl } from '../util/describe.js';
import { ignore } from '../env/timers.js';
import { checkOptions } from '../protocol/check-options.js';
import { isAbortError } from '../protocol/error-policy.js';
import { ExpiryStatus, NOT_MODIFIED } from '../protocol/types.js';
import { dataExpiresAt } from '../store/state.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import { DEFAULT_RETRY, attempts } from './retry.js';
import { readFailure, readResponse } from '../store/read-response.js';
import { errorExpiry } from './expiry.js';
import type { EndpointLike, RetryOption, RunContext } from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import type { Controller } from './controller.js';
import type { Records } from './records.js';
import type { ControllerOptions } from './types.js';
import { IF_STALE, REFETCH, REVALIDATE } from './request.js';
import type { Committing, Intent, Request } from './request.js';
import type { InFlightRequest } from './types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The requests of one Controller, from start to settle. */
export class Requests {
  /** Requests in flight by id, oldest first; an optimistic entry's id is its request's. */
  readonly #running = new Map<number, Request>();
  /** Set by `dispose()`: no retry starts, and every wait between attempts ends. */
  // Set in the constructor: an initialized public field (assignment semantics) would move every
  // private field's initializer into the constructor too, in longer code.
  disposed: boolean;
  /**
   * The last number handed out: every request, `setResponse` and invalidation takes the next, so
   * outcomes order whatever the clock's resolution.
   */
  #seq = 0;
  /** Requests with a smaller id started before the last reset: their outcome is no one's. */
  #resetSeq = 0;
  readonly #controller: Controller;
  readonly #records: Records;
  /** What every request's run is given: the `fetch` option (when given) and the timers. */
  readonly #context: RunContext;
  readonly #retry: RetryOption;

  constructor(
    controller: Controller,
    records: Records,
    { fetch, retry = DEFAULT_RETRY }: ControllerOptions,
  ) {
    this.disposed = false;
    this.#controller = controller;
    this.#records = records;
    this.#context = { ...(fetch && { fetch }), timers: controller.timers };
    this.#retry = retry;
  }

  /**
   * Sends `endpoint(...args)`, or joins the identical read in flight, as `intent` says. Returns
   * undefined when an `IF_STALE` or `REVALIDATE` read needs no request; the rejection of a
   * request nobody awaits for sure is handled here.
   */
  run(
    endpoint: EndpointLike,
    args: readonly unknown[],
    intent: Intent,
    key?: string,
  ): Promise<unknown> | undefined {
    const awaited = intent < IF_STALE;
    // A request nobody awaits for sure: its rejection is handled here.
    const settled = (promise: Promise<unknown>) => (awaited || promise.catch(ignore), promise);
    let requestKey: string;
    let joined: Request | false | undefined;
    try {
      // A held read brings its key; a read of its own args (not a page) is its request's key.
      key ??= storeKey(endpoint, args);
      requestKey = storeArgs(endpoint, args) === args ? key : endpoint.key(...args);
      if (DEV()) checkOptions(endpoint);
      joined = !endpoint.sideEffect && intent !== REFETCH && this.#joinable(requestKey);
      if (!joined && !awaited) {
        // Inside the try: a stored read that cannot be built settles as a rejection, so a loop
        // that revalidates every read goes on past it.
        const { expiryStatus, error } = this.#records.response(key, endpoint, args);
        const { committed, visible } = this.#records.store;
        if (
          expiryStatus === ExpiryStatus.Valid ||
          (intent < REVALIDATE && error !== undefined) ||
          // Hidden only by a pending optimistic update (a delete): a read now would bring back
          // what the mutation is taking away.
          (expiryStatus === ExpiryStatus.Invalid &&
            visible !== committed &&
            readResponse(committed, this.#records.memo, key, endpoint, args, this.#records.now())
              .expiryStatus !== ExpiryStatus.Invalid)
        ) {
          return undefined;
        }
      }
    } catch (error) {
      return settled(Promise.reject(error));
    }
    if (joined) {
      joined.awaited ||= awaited;
      return awaited ? joined.promise : undefined;
    }
    const id = ++this.#seq;
    const record = this.#records.of(key);
    const settles = endpoint.getOptimisticResponse && id;
    const request: Request = {
      id,
      endpoint,
      args,
      key,
      startedAt: this.#records.stamp(),
      record,
      requestKey,
      normalizeArgs: storeArgs(endpoint, args),
      settles,
      abort: new AbortController(),
      awaited,
    };
    this.#running.set(id, request);
    record.inFlight++;
    // Its readers hear it started once the caller's own work is done (an observer is starting it).
    queueMicrotask(() => this.#records.tell(key));
    record.shown = { endpoint, args };
    this.#controller.events.emit({ type: 'request', phase: 'start', id, endpoint, args, key });
    /** Dates the request (and its optimistic update, queued again with that date). */
    const sending = (at = this.#records.stamp()) => {
      request.startedAt = at;
      if (settles) {
        this.#controller.dispatch({
          type: 'optimistic/add',
          entry: { id, key, args: [...args], fetchedAt: at },
          endpoint,
        });
      }
    };
    sending(request.startedAt);
    const context: RunContext = {
      ...this.#context,
      signal: request.abort.signal,
      sending,
    };
    // A read of its own key (not a page added to a list) asks whether the stored answer holds.
    if (!endpoint.sideEffect && requestKey === key) {
      request.conditional = context;
      context.validator = getOwn(this.#records.store.committed.meta, key)?.validator;
    }
    return settled(
      (request.promise = attempts(
        request,
        context,
        this.#controller,
        () => request.abort.signal.aborted || this.disposed || this.#outdated(request, true),
        this.#retry,
      ).then(
        (response) => this.#end(request, response),
        (error: unknown) => this.#end(request, error, true),
      )),
    );
  }

  /**
   * Stores `response` as the response of `endpoint(...args)` as a request's answer would be,
   * numbered before listeners hear of it: a request one of them starts then is the newer.
   */
  setResponse(endpoint: EndpointLike, args: readonly unknown[], response: unknown): void {
    const key = storeKey(endpoint, args);
    if (DEV()) checkOptions(endpoint);
    const record = this.#records.of(key);
    // Its schema is known from now on (what GC and invalidation walk).
    record.shown = { endpoint, args };
    this.commit(
      {
        id: ++this.#seq,
        endpoint,
        key,
        record,
        normalizeArgs: storeArgs(endpoint, args),
        startedAt: this.#records.stamp(),
      },
      response,
    );
  }

  /**
   * Settles `request` with its answer or (`failed`) its last failure: commits it unless nobody
   * needed it or a newer outcome is stored (then its optimistic update is taken back), tells
   * `events`, and resolves with the value readers see or rejects with the failure.
   */
  #end(request: Request, outcome: unknown, failed?: boolean): unknown {
    const { id, endpoint, args, key, record, requestKey } = request;
    this.#running.delete(id);
    // Not in flight from here: what it commits shows its readers as no longer refreshing.
    record.inFlight--;
    this.#records.left(record);
    // Aborted because nobody needed it: not the server's word on the read, nothing to store.
    const aborted = failed && request.abort.signal.aborted && isAbortError(outcome);
    // A newer outcome is stored: this failure is not the read's any more, this answer only
    // resolves its caller.
    const outdated = !aborted && this.#outdated(request, failed);
    if (aborted || outdated) {
      // Its outcome is not committed: its optimistic update is taken back.
      if (request.settles)
        this.#controller.dispatch({ type: 'optimistic/remove', id: request.settles });
    } else if (failed) this.#commitError(request, outcome);
    else {
      try {
        this.commit(request, outcome);
      } catch (error) {
        // The response does not fit its schema: that is this request's error; nothing was
        // written. Its message says what and where; the request that brought it goes in front
        // (what that means is development prose).
        const name = shortUrl(requestKey);
        if (error instanceof NormalizeError && !error.message.startsWith(name)) {
          error.message = `${name}${
            DEV() ? ' answered data that does not fit the schema' : ''
          }: ${error.message}`;
        }
        this.#commitError(request, error);
        failed = true;
        outcome = error;
      }
    }
    // Nothing committed (aborted, outdated): its readers still hear it ended.
    this.#records.tell(key);
    let value: unknown;
    if (!failed) {
      try {
        value = this.#value(request, outcome, outdated);
        if (value === INVALID) {
          // Invalid right after its own answer (a required entity in it is INVALID): fetching
          // again would bring the same, so it is this read's error, backed off like any other.
          const lacking = new Denormalizer(this.#records.store.visible.entities);
          lacking.run(endpoint.schema, getOwn(this.#records.store.committed.endpoints, key));
          const error = new Error(
            `${shortUrl(requestKey)} answered, but ${lacking.lacks ?? 'its data'} is INVALID`,
          );
          this.#commitError(request, error);
          throw error;
        }
        if (!outdated) record.failures = 0;
      } catch (error) {
        // The event tells what the caller sees.
        failed = true;
        outcome = error;
      }
    }
    this.#controller.events.emit({
      type: 'request',
      phase: 'settle',
      id,
      endpoint,
      args,
      key,
      ok: !failed,
      error: failed ? outcome : undefined,
      aborted,
      outdated: outdated || undefined,
    });
    if (failed) throw outcome;
    return value;
  }

  /** Stores `response` as the data of `request`'s key, newer than every request before it. */
  commit(request: Committing, response: unknown): void {
    const { key, endpoint, id, record } = request;
    // A stamp: a request started after this write is newer than it, even in the same ms.
    const now = this.#records.stamp();
    const action: Action = {
      type: 'response/set',
      key,
      schema: endpoint.schema,
      args: request.normalizeArgs,
      response,
      fetchedAt: request.startedAt,
      date: now,
      expiresAt: dataExpiresAt(endpoint, now),
      keepError: record.errorSeq > id,
      settles: request.settles,
      validator: request.conditional?.validator,
    };
    this.#controller.batch(() => {
      this.#controller.dispatch(action);
      // Mutations committed while this read was in flight: the server may have answered it
      // before them (a list without the todo just created), so they apply again over it. As
      // old as they are, they change only what their answer adds (a list member).
      for (const made of request.created ?? []) this.#controller.dispatch(made);
    });
    if (record.dataSeq < id) record.dataSeq = id;
    if (endpoint.sideEffect) {
      for (const read of this.#running.values()) {
        if (!read.endpoint.sideEffect) (read.created ??= []).push(action);
      }
    }
  }

  #commitError(request: Request, error: unknown): void {
    const { record } = request;
    this.#controller.dispatch({
      type: 'response/error',
      key: request.key,
      error,
      fetchedAt: request.startedAt,
      expiresAt: this.#records.now() + errorExpiry(request.endpoint, error, ++record.failures),
      settles: request.settles,
    });
    if (record.errorSeq < request.id) record.errorSeq = request.id;
  }

  /**
   * The value an answer resolves with: its result denormalized as readers see it; when it was
   * not committed (`outdated`), what it says read against the store (entity values newer than it
   * still win), or the answer itself when that cannot be read.
   */
  #value(request: Request, response: unknown, outdated: boolean): unknown {
    const { endpoint, key, normalizeArgs } = request;
    const { schema } = endpoint;
    if (schema === undefined || schema === null) return response;
    const { committed, visible } = this.#records.store;
    try {
      const { result, entities } =
        outdated && response !== NOT_MODIFIED
          ? normalize(schema, response, normalizeArgs, visible, {
              fetchedAt: request.startedAt,
              date: this.#records.now(),
              expiresAt: 0,
            })
          : { result: getOwn(committed.endpoints, key), entities: visible.entities };
      const value = this.#records.memo.denormalize(schema, result, entities);
      // A delete's entity is INVALID by design: the caller gets what the endpoint returned.
      return value === INVALID && (outdated || endpoint.sideEffect) ? response : value;
    } catch (error) {
      if (outdated) return response;
      throw readFailure(error, key);
    }
  }

  /** The requests started and not settled, oldest first. */
  inFlight(): InFlightRequest[] {
    return [...this.#running.values()];
  }

  /**
   * A reset: requests started before it are no one's (their answers are dropped when they
   * arrive); reads nobody awaits are aborted, and waits between attempts end.
   */
  reset(): void {
    this.#resetSeq = ++this.#seq;
    // Awaited requests and mutations run on: a caller waits for them, and a sent mutation is not
    // undone by an abort. A wait would only end in an answer that is dropped.
    this.release();
    this.endWaits();
  }

  /**
   * True when a newer outcome is committed: a reset since the request started, or (for reads)
   * data, or with `error` an error too, from a request started later. Mutations are not ordered
   * by key: two creates to one URL are different facts, and entity values are ordered by the
   * normalizer.
   */
  #outdated({ id, endpoint, record }: Request, error?: boolean): boolean {
    return (
      id < this.#resetSeq ||
      (!endpoint.sideEffect && (record.dataSeq > id || (!!error && record.errorSeq > id)))
    );
  }

  /**
   * Invalidates `keys`. Each is outdated once: by the Controller's `#committed`, before any listener hears of it
   * (its readers may ask again at once), or here when the store held nothing to mark (a first
   * read, one invalidated already): a read in flight was sent before the caller's reason to
   * invalidate (a new token, say).
   */
  invalidate(keys: string[]): void {
    const { committed } = this.#records.store;
    const entities: [string, string][] = [];
    // What they brought is no longer fresh for a read served from the stored entity: after a
    // push stream's gap, a read mounted later must not show what the gap missed as fresh.
    for (const key of keys) {
      const shown = this.#records.get(key)?.shown;
      if (shown && hasOwn(committed.endpoints, key)) {
        visitEntities(
          shown.endpoint.schema,
          committed.endpoints[key],
          committed.entities,
          [],
          (type, pk) => entities.push([type, pk]),
        );
      }
    }
    if (keys.length > 0 && !this.#controller.dispatch({ type: 'invalidate', keys, entities })) {
      for (const key of keys) this.outdate(key);
    }
  }

  /**
   * Aborts the reads nobody awaits, of `key` (its last subscriber left, it was invalidated) or of
   * every key (a reset), and ends their waits between attempts. An aborted read is not joined.
   */
  release(key?: string): void {
    for (const request of this.#running.values()) {
      if (
        !request.awaited &&
        !request.endpoint.sideEffect &&
        (key ?? request.key) === request.key
      ) {
        request.abort.abort();
        request.wake?.();
      }
    }
  }

  /** Ends every wait between attempts: each request fails with its last failure (or aborted). */
  endWaits(): void {
    for (const request of this.#running.values()) request.wake?.();
  }

  /**
   * The read in flight an identical one (same request key) joins: the newest still the read's,
   * neither aborted nor outdated (by a newer outcome, a reset or an invalidation).
   */
  #joinable(requestKey: string): Request | undefined {
    let found: Request | undefined;
    for (const request of this.#running.values()) {
      if (
        request.requestKey === requestKey &&
        !request.endpoint.sideEffect &&
        !request.abort.signal.aborted &&
        !this.#outdated(request, true)
      ) {
        found = request;
      }
    }
    return found;
  }

  /**
   * A read of `key` in flight left before an invalidation: its answer is dropped, and the read is
   * sent again instead of joined (or aborted, when nobody awaits it).
   */
  outdate(key: string): void {
    this.#records.of(key).dataSeq = ++this.#seq;
    this.release(key);
  }
}
