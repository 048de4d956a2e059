/**
 * A fetch whose responses a test gives by hand, in any order.
 */

/** One call to the fake fetch, waiting for the test to answer it. */
export interface PendingRequest {
  readonly url: string;
  readonly method: string;
  readonly body: unknown;
  /** The request's signal: like a real fetch, an abort rejects the call with an AbortError. */
  readonly signal: AbortSignal | undefined;
  /** Answers with `status` and `body` (JSON-encoded unless it is a string). */
  respond(status: number, body?: unknown): void;
  /** Answers with `text` as it is, labelled as JSON unless told otherwise. */
  respondText(status: number, text: string, contentType?: string): void;
  /** Fails like a dropped connection. */
  fail(error?: Error): void;
}

/**
 * @example
 * const server = new FakeServer();
 * const controller = new Controller({ fetch: server.fetch });
 * const promise = controller.fetch(getTodo, { id: 1 });
 * server.take('GET /todos/1').respond(200, { id: 1, title: 'a' });
 */
export class FakeServer {
  /** Every request made, answered or not, in order. */
  readonly calls: PendingRequest[] = [];
  readonly #waiting: PendingRequest[] = [];
  readonly #honourAbort: boolean;

  /**
   * @param options.honourAbort `false` makes the fake a fetch that ignores its signal (as some
   * polyfills and wrappers do): an aborted request stays pending and can still be answered.
   */
  constructor(options: { honourAbort?: boolean } = {}) {
    this.#honourAbort = options.honourAbort ?? true;
  }

  readonly fetch: typeof globalThis.fetch = (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    return new Promise<Response>((resolve, reject) => {
      const signal = init?.signal ?? undefined;
      const aborted = () => {
        const index = this.#waiting.indexOf(request);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new DOMException('This operation was aborted', 'AbortError'));
      };
      const request: PendingRequest = {
        url,
        method,
        signal,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        respond: (status, body) =>
          resolve(
            new Response(
              status === 204 || body === undefined
                ? null
                : typeof body === 'string'
                  ? body
                  : JSON.stringify(body),
              { status, headers: { 'content-type': 'application/json' } },
            ),
          ),
        respondText: (status, text, contentType = 'application/json') =>
          resolve(new Response(text, { status, headers: { 'content-type': contentType } })),
        fail: (error = new TypeError('Failed to fetch')) => reject(error),
      };
      this.calls.push(request);
      if (this.#honourAbort) {
        if (signal?.aborted) return aborted();
        signal?.addEventListener('abort', aborted, { once: true });
      }
      this.#waiting.push(request);
    });
  };

  /** Requests not answered yet. */
  get waiting(): readonly PendingRequest[] {
    return this.#waiting;
  }

  /** Removes and returns the oldest unanswered request (optionally: the oldest for `METHOD url`). */
  take(match?: string): PendingRequest {
    const index =
      match === undefined
        ? 0
        : this.#waiting.findIndex((request) => `${request.method} ${request.url}` === match);
    const request = this.#waiting[index];
    if (index < 0 || !request) {
      const open = this.#waiting.map((r) => `${r.method} ${r.url}`).join(', ') || 'none';
      throw new Error(`No pending request ${match ?? ''}; pending: ${open}`);
    }
    this.#waiting.splice(index, 1);
    return request;
  }
}

/** Lets every settled promise chain run (fetch, body parsing, the controller's commit). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
