/**
 * A recording fake `fetch` for endpoint tests: every call is kept with its method, URL, headers
 * (as a plain record) and body text, and each is answered by a handler (JSON 200 by default).
 */

/** One request as the fake saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** The body as sent (a string for JSON), or undefined. */
  readonly body: unknown;
  readonly init: RequestInit;
}

/** Answers one request. */
export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

/** A JSON response (status 200 unless given). */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A response with a raw body and content type. */
export function text(body: string, contentType = 'text/plain', status = 200): Response {
  return new Response(body, {
    status,
    headers: contentType ? { 'Content-Type': contentType } : {},
  });
}

export interface FakeFetch {
  readonly fetch: typeof globalThis.fetch;
  readonly calls: RecordedRequest[];
  /** The one request made so far (fails when there were none or several). */
  only(): RecordedRequest;
  /** Changes how the following requests are answered. */
  respond(handler: Handler): void;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (out[name] = value));
  // Keep the names exactly as the endpoint wrote them when they came as a record.
  if (init?.headers && !Array.isArray(init.headers) && !(init.headers instanceof Headers)) {
    return { ...(init.headers as Record<string, string>) };
  }
  return out;
}

/**
 * @example
 * const fake = fakeFetch(() => json({ id: '1' }));
 * await endpoint.run([{ id: 1 }], { fetch: fake.fetch });
 * assert.equal(fake.only().url, 'https://api.test/todos/1');
 */
export function fakeFetch(handler: Handler = () => json({})): FakeFetch {
  const calls: RecordedRequest[] = [];
  let answer = handler;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: headersOf(init),
      body: init?.body,
      init: init ?? {},
    };
    calls.push(request);
    const signal = init?.signal;
    if (signal?.aborted) throw signal.reason;
    const response = answer(request);
    if (!signal) return response;
    // Like the real fetch: an abort while waiting rejects with the signal's reason.
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      Promise.resolve(response).then(resolve, reject);
    });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    calls,
    only() {
      if (calls.length !== 1) throw new Error(`expected exactly one request, got ${calls.length}`);
      return calls[0]!;
    },
    respond(next) {
      answer = next;
    },
  };
}
