/**
 * One request's life, for the Controller: dedupe, the optimistic entry, the run (with retries),
 * then the commit of its data or error in request order, or the drop of an answer that came too
 * late, with the `request` events around it.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { Denormalizer } from '../normalize/denormalizer.js';
import { INVALID } from '../schema/types.js';
import { shortUrl } from '../util/describe.js';
import { getOwn } from '../util/own.js';
import type { Timers } from '../env/timers.js';
import { isAbortError } from '../protocol/error-policy.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import type { EndpointLike, RunContext } from '../protocol/types.js';
import type { Store } from '../store/store.js';
import type { ControllerEvents } from './events.js';
import { dataExpiresAt, errorExpiry } from './expiry.js';
import { checkOptions } from '../protocol/check-options.js';
import type { KeyEntries } from './key-entry.js';
import type { OptimisticQueue } from './optimistic-queue.js';
import type { Request, RequestTracker } from './request-tracker.js';
import { withRetries } from './retry.js';
import { readFailure } from '../store/read-response.js';
import type { RetryEnv } from './retry.js';

/** The parts of a Controller that requests work on. */
export interface RunnerParts {
  readonly store: Store;
  readonly memo: MemoCache;
  readonly requests: RequestTracker;
  readonly optimistic: OptimisticQueue;
  readonly events: ControllerEvents;
  readonly entries: KeyEntries;
  readonly now: () => number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly timers: Timers;
  readonly retryEnv: RetryEnv;
}

/**
 * Puts the request (`GET https://api.test/todos/1`) in front of a normalize error's message, which
 * says what and where in the response but cannot know which request brought it.
 */
function nameRequest(error: unknown, requestKey: string): void {
  const request = shortUrl(requestKey);
  if (!(error instanceof NormalizeError) || error.message.startsWith(request)) return;
  error.message = `${request} answered data that does not fit the schema: ${error.message}`;
}

export class RequestRunner {
  readonly #p: RunnerParts;

  constructor(parts: RunnerParts) {
    this.#p = parts;
  }

  /**
   * Sends `endpoint(...args)` (or joins the identical read in flight, unless `force`), and
   * resolves with the value readers see once it is committed.
   */
  run(
    endpoint: EndpointLike,
    args: readonly unknown[],
    force: boolean,
    awaited: boolean,
  ): Promise<unknown> {
    let requestKey: string;
    let key: string;
    try {
      requestKey = endpoint.key(...args);
      key = storeKey(endpoint, args);
      if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production')
        checkOptions(endpoint);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!endpoint.sideEffect && !force) {
      const running = this.#p.requests.shared(requestKey);
      if (running) {
        running.awaited ||= awaited;
        return running.promise!;
      }
    }
    const request = this.#p.requests.start({
      endpoint,
      args,
      key,
      normalizeArgs: storeArgs(endpoint, args),
      requestKey,
      optimistic: endpoint.getOptimisticResponse !== undefined,
      awaited,
    });
    const { seq } = request;
    const entry = this.#p.entries.of(key);
    entry.inFlight++;
    entry.shown = { endpoint, args };
    this.#p.events.emit({ type: 'request', phase: 'start', id: seq, endpoint, args, key });
    /** Dates the request (and its optimistic update, queued again with that date). */
    const sending = (at = this.#p.requests.stamp()) => {
      request.startedAt = at;
      if (request.optimistic) {
        this.#p.store.dispatch({
          type: 'optimistic/add',
          entry: { id: seq, key, args: [...args], fetchedAt: at },
        });
      }
    };
    if (request.optimistic) this.#p.optimistic.register(seq, endpoint);
    sending(request.startedAt);
    const context: RunContext = {
      ...(this.#p.fetch ? { fetch: this.#p.fetch } : {}),
      signal: request.abort.signal,
      timers: this.#p.timers,
      sending,
    };
    // Retries run inside the one request: readers see one pending read, and only the last
    // failure is stored.
    const running = withRetries(endpoint, args, context, this.#p.retryEnv, () =>
      this.#isOutdated(request, 'error'),
    );
    return (request.promise = running.then(
      (response) => this.#succeed(request, response),
      (error: unknown) => this.#fail(request, error),
    ));
  }

  #succeed(request: Request, response: unknown): unknown {
    this.#p.requests.settle(request);
    const { key, endpoint, seq } = request;
    if (this.#isOutdated(request, 'data')) {
      this.#dropOptimistic(request);
      this.#emitSettled(request, true, undefined, true);
      return this.#uncommittedValue(request, response);
    }
    const now = this.#p.now();
    const entry = this.#p.entries.of(key);
    try {
      this.#p.store.dispatch({
        type: 'response/set',
        key,
        schema: endpoint.schema,
        args: request.normalizeArgs,
        response,
        fetchedAt: request.startedAt,
        date: now,
        expiresAt: dataExpiresAt(endpoint, now),
        keepError: entry.errorSeq > seq,
        settles: request.optimistic ? seq : undefined,
      });
    } catch (error) {
      // The response does not fit its schema: that is this request's error; nothing was written.
      nameRequest(error, request.requestKey);
      this.#commitError(request, error);
      this.#emitSettled(request, false, error);
      throw error;
    }
    entry.dataSeq = Math.max(entry.dataSeq, seq);
    if (request.optimistic) this.#p.optimistic.forget(seq);
    this.#emitSettled(request, true);
    const value = this.#committedValue(request, response);
    if (value !== INVALID) {
      entry.failures = 0;
      return value;
    }
    // Invalid right after its own answer (a required entity in it is INVALID): fetching again
    // would bring the same, so it is this read's error, backed off like any other.
    const lacking = new Denormalizer(this.#p.store.visible.entities);
    lacking.run(endpoint.schema, getOwn(this.#p.store.committed.endpoints, key));
    const error = new Error(
      `${shortUrl(request.requestKey)} answered, but ${lacking.lacks ?? 'its data'} is INVALID`,
    );
    this.#commitError(request, error);
    throw error;
  }

  #fail(request: Request, error: unknown): never {
    this.#p.requests.settle(request);
    // Aborted because nobody needed it: not the server's word on the read, nothing to store.
    const dropped = request.abort.signal.aborted && isAbortError(error);
    // A newer outcome is stored: this failure is not the read's any more.
    const outdated = !dropped && this.#isOutdated(request, 'error');
    if (dropped || outdated) this.#dropOptimistic(request);
    else this.#commitError(request, error);
    this.#emitSettled(request, false, error, outdated || undefined, dropped);
    throw error;
  }

  #emitSettled(
    request: Request,
    ok: boolean,
    error?: unknown,
    outdated?: boolean,
    aborted?: boolean,
  ): void {
    const { seq: id, endpoint, args, key } = request;
    const entry = this.#p.entries.of(key);
    entry.inFlight--;
    if (entry.idle) entry.lastUsed = this.#p.now();
    this.#p.events.emit({
      type: 'request',
      phase: 'settle',
      id,
      endpoint,
      args,
      key,
      ok,
      error,
      aborted,
      outdated,
    });
  }

  #commitError(request: Request, error: unknown): void {
    const { key, endpoint, seq } = request;
    const entry = this.#p.entries.of(key);
    entry.failures++;
    this.#p.store.dispatch({
      type: 'response/error',
      key,
      error,
      fetchedAt: request.startedAt,
      expiresAt: this.#p.now() + errorExpiry(endpoint, error, entry.failures),
      settles: request.optimistic ? seq : undefined,
    });
    entry.errorSeq = Math.max(entry.errorSeq, seq);
    if (request.optimistic) this.#p.optimistic.forget(seq);
  }

  /**
   * True when a newer outcome is committed: a reset since the request started, or (for reads)
   * data from a request started later. Mutations are not ordered by key: two creates to one
   * URL are different facts, and entity values are ordered by the normalizer.
   */
  #isOutdated(request: Request, outcome: 'data' | 'error'): boolean {
    if (this.#p.requests.beforeReset(request)) return true;
    if (request.endpoint.sideEffect) return false;
    const entry = this.#p.entries.get(request.key);
    if (!entry) return false;
    if (entry.dataSeq > request.seq) return true;
    return outcome === 'error' && entry.errorSeq > request.seq;
  }

  #dropOptimistic(request: Request): void {
    if (!request.optimistic) return;
    this.#p.store.dispatch({ type: 'optimistic/remove', id: request.seq });
    this.#p.optimistic.forget(request.seq);
  }

  /** The value a committed response resolves with: its result, denormalized as readers see it. */
  #committedValue(request: Request, response: unknown): unknown {
    const schema = request.endpoint.schema;
    if (schema === undefined || schema === null) return response;
    const result = getOwn(this.#p.store.committed.endpoints, request.key);
    let value: unknown;
    try {
      value = this.#p.memo.denormalize(
        schema,
        result,
        this.#p.store.visible.entities,
        request.normalizeArgs,
      );
    } catch (error) {
      throw readFailure(error, request.key);
    }
    // A delete's entity is INVALID by design: the caller gets what the endpoint returned.
    return value === INVALID && request.endpoint.sideEffect ? response : value;
  }

  /**
   * The value a dropped (late) response resolves with: what it says, read against the store
   * without being committed (entity values newer than it still win).
   */
  #uncommittedValue(request: Request, response: unknown): unknown {
    const schema = request.endpoint.schema;
    if (schema === undefined || schema === null) return response;
    try {
      const scratch = normalize(schema, response, request.normalizeArgs, this.#p.store.visible, {
        fetchedAt: request.startedAt,
        date: this.#p.now(),
        expiresAt: 0,
      });
      const value = this.#p.memo.denormalize(
        schema,
        scratch.result,
        scratch.entities,
        request.normalizeArgs,
      );
      return value === INVALID ? response : value;
    } catch {
      return response;
    }
  }
}
