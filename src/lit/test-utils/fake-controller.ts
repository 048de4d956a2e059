// An in-memory ControllerLike for testing the Lit layer alone: every request waits for the test to
// resolve or reject it by hand, and the test can write responses straight into the "store".
import type {
  ControllerLike,
  EndpointLike,
  ExpiryStatus,
  Resolved,
  ResponseInfo,
} from '../../core/protocol/types.js';

/** A request the fake controller started; the test settles it. */
export interface FakeRequest {
  readonly key: string;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  readonly promise: Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A GET endpoint whose key is its name plus its params with sorted keys. */
export function fakeEndpoint<P extends object | undefined = { id: string }, R = unknown>(
  name: string,
  sideEffect = false,
): EndpointLike<[P], R> {
  const key = (params?: P) =>
    `${sideEffect ? 'POST' : 'GET'} /${name}?${
      params
        ? Object.keys(params)
            .sort()
            .map((k) => `${k}=${String((params as Record<string, unknown>)[k])}`)
            .join('&')
        : ''
    }`;
  const endpoint = (() => Promise.reject(new Error('call through the controller'))) as unknown as {
    -readonly [K in keyof EndpointLike<[P], R>]: EndpointLike<[P], R>[K];
  };
  Object.defineProperty(endpoint, 'name', { value: name });
  endpoint.key = key;
  endpoint.sideEffect = sideEffect;
  endpoint.run = () => Promise.reject(new Error('fake endpoints do not run'));
  return endpoint as EndpointLike<[P], R>;
}

export class FakeController implements ControllerLike {
  readonly requests: FakeRequest[] = [];
  readonly #responses = new Map<string, ResponseInfo>();
  readonly #inFlight = new Map<string, FakeRequest>();
  readonly #listeners = new Set<() => void>();
  readonly #subscriptions = new Map<string, number>();
  readonly calls = { online: 0, offline: 0, focus: 0, getResponse: 0 };

  fetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#send(endpoint, args, false) as Promise<Resolved<E>>;
  }

  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#send(endpoint, args, true) as Promise<Resolved<E>>;
  }

  #send(endpoint: EndpointLike, args: readonly unknown[], force: boolean): Promise<unknown> {
    const key = endpoint.key(...args);
    const shared = endpoint.sideEffect || force ? undefined : this.#inFlight.get(key);
    if (shared) return shared.promise;
    let resolve!: (value: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<unknown>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const request: FakeRequest = {
      key,
      endpoint,
      args,
      promise,
      resolve: (value) => {
        this.#inFlight.delete(key);
        this.set(key, { data: value, expiryStatus: 'valid', error: undefined });
        resolve(value);
      },
      reject: (error) => {
        this.#inFlight.delete(key);
        const before = this.#responses.get(key);
        this.set(key, {
          data: before?.data,
          expiryStatus: before?.expiryStatus ?? 'invalid',
          error,
        });
        reject(error);
      },
    };
    // Callers that do not await (fetchIfStale from an element) must not leave unhandled rejections.
    promise.catch(() => {});
    this.requests.push(request);
    if (!endpoint.sideEffect) this.#inFlight.set(key, request);
    return promise;
  }

  fetchIfStale<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<Resolved<E>> | undefined {
    const key = endpoint.key(...args);
    const inFlight = this.#inFlight.get(key);
    if (inFlight) return inFlight.promise as Promise<Resolved<E>>;
    const response = this.getResponse(endpoint, ...args);
    if (response.expiryStatus === 'valid' || response.error !== undefined) return undefined;
    return this.fetch(endpoint, ...args);
  }

  getResponse<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): ResponseInfo<Resolved<E>> {
    this.calls.getResponse++;
    const key = endpoint.key(...args);
    let response = this.#responses.get(key);
    if (!response) {
      response = { data: undefined, expiryStatus: 'invalid', expiresAt: 0, error: undefined };
      this.#responses.set(key, response);
    }
    return response as ResponseInfo<Resolved<E>>;
  }

  subscribe<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): () => void {
    const key = endpoint.key(...args);
    this.#subscriptions.set(key, (this.#subscriptions.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = this.#subscriptions.get(key)! - 1;
      if (left) this.#subscriptions.set(key, left);
      else this.#subscriptions.delete(key);
    };
  }

  addListener(listener: () => void): () => void {
    // A wrapper per call, so adding the same function twice counts twice (as a leak would).
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  online(): void {
    this.calls.online++;
  }
  offline(): void {
    this.calls.offline++;
  }
  focus(): void {
    this.calls.focus++;
  }

  invalidate<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): void {
    this.invalidateAll((key) => key === endpoint.key(...args));
  }

  invalidateAll(test: (key: string) => boolean): void {
    for (const key of [...this.#responses.keys()]) {
      if (test(key))
        this.#responses.set(key, {
          data: undefined,
          expiryStatus: 'invalid',
          expiresAt: 0,
          error: undefined,
        });
    }
    for (const listener of [...this.#listeners]) listener();
  }

  resetEntireStore(): void {
    this.invalidateAll(() => true);
  }

  /** Writes a response (a new object) and notifies listeners once, as a committed change. */
  set(
    key: string,
    response: { data: unknown; expiryStatus: ExpiryStatus; error?: unknown; expiresAt?: number },
  ): void {
    this.#responses.set(key, { expiresAt: 0, error: undefined, ...response });
    for (const listener of [...this.#listeners]) listener();
  }

  /** Notifies listeners without changing anything: getResponse returns the same objects. */
  touch(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Open interest: what a leak test checks. */
  stats(): { listeners: number; subscriptions: number; inFlight: number } {
    let subscriptions = 0;
    for (const count of this.#subscriptions.values()) subscriptions += count;
    return { listeners: this.#listeners.size, subscriptions, inFlight: this.#inFlight.size };
  }

  /** How many subscribers a key has. */
  subscribers(key: string): number {
    return this.#subscriptions.get(key) ?? 0;
  }
}
