/**
 * The fake REST server both libraries talk to: an in-page `fetch` stub over an in-memory table of
 * items, answering every request after the same fixed latency with a real `Response` holding JSON
 * text (so each library parses fresh objects, as it would from the network).
 */
export interface ItemData {
  id: string;
  title: string;
  done: boolean;
}

export const ORIGIN = 'http://bench.test';

export interface FakeServer {
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** Every request seen, as `METHOD /path`. */
  log: string[];
  /** The id the last POST created. */
  lastCreatedId: string | undefined;
}

export const server: FakeServer = { inFlight: 0, log: [], lastCreatedId: undefined };

let items: ItemData[] = [];
let nextId = 1;

export function seed(count: number): void {
  items = [];
  for (nextId = 1; nextId <= count; nextId++) {
    items.push({ id: String(nextId), title: `item ${nextId}`, done: nextId % 3 === 0 });
  }
  server.log = [];
  server.lastCreatedId = undefined;
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function answer(method: string, path: string, body: string | undefined): Response {
  const match = /^\/items(?:\/([^/?]+))?$/.exec(path);
  if (!match) return json({ message: 'not found' }, 404);
  const id = match[1] && decodeURIComponent(match[1]);
  if (!id) {
    if (method === 'GET') return json(items);
    if (method === 'POST') {
      const created = { done: false, title: '', ...JSON.parse(body ?? '{}'), id: String(nextId++) };
      items.push(created);
      server.lastCreatedId = created.id;
      return json(created, 201);
    }
  } else {
    const index = items.findIndex((item) => item.id === id);
    if (index < 0) return json({ message: 'not found' }, 404);
    if (method === 'GET') return json(items[index]);
    if (method === 'PATCH' || method === 'PUT') {
      items[index] = { ...items[index]!, ...JSON.parse(body ?? '{}'), id };
      return json(items[index]);
    }
    if (method === 'DELETE') {
      items.splice(index, 1);
      return new Response(null, { status: 204 });
    }
  }
  return json({ message: 'method not allowed' }, 405);
}

/** Replaces `globalThis.fetch` with the fake server, answering after `latencyMs`. */
export function installFakeServer(latencyMs: number): void {
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), ORIGIN);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const body =
      typeof init?.body === 'string' ? init.body : request ? await request.text() : undefined;
    server.inFlight += 1;
    server.log.push(`${method} ${url.pathname}`);
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const response = answer(method, url.pathname, body || undefined);
    if (response.body === null) {
      server.inFlight -= 1;
      return response;
    }
    // In flight until the library has read the body: only then can it act on the answer.
    const read =
      <T>(reader: () => Promise<T>) =>
      async () => {
        try {
          return await reader();
        } finally {
          server.inFlight -= 1;
        }
      };
    response.json = read(response.json.bind(response));
    response.text = read(response.text.bind(response));
    return response;
  };
}
