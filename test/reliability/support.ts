// What every Node reliability case checks, in one place: no unhandled rejection, nothing already
// stored lost, and a real HTTP server the real fetch talks to (so content types, empty bodies,
// dropped sockets and aborts are the network's own, not a fake's idea of them).
import { after, afterEach, before } from 'node:test';
import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Controller } from '../../src/core/controller/controller.js';

/**
 * Fails the test during which a promise rejection went unhandled (checked after each test, once
 * pending callbacks have run), and the file if one surfaces after the last test.
 */
export function failOnUnhandledRejection(): void {
  let seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  const check = async () => {
    // Unhandled rejections are reported after the microtask queue drains: give them two turns.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 1));
    const found = seen;
    seen = [];
    assert.deepEqual(found, [], 'no promise rejection went unhandled');
  };
  before(() => void process.on('unhandledRejection', listener));
  afterEach(check);
  after(async () => {
    await check();
    process.off('unhandledRejection', listener);
  });
}

/**
 * What a failure must leave exactly as it was: entities, their meta, stored results and their
 * meta (the errors slice is where a failure is meant to show).
 */
export function storedData(controller: Controller): string {
  const { entities, entitiesMeta, endpoints, meta } = controller.getState();
  return JSON.stringify({ entities, entitiesMeta, endpoints, meta });
}

/** One request as the server received it. */
export interface ServedRequest {
  readonly method: string;
  /** Path and query exactly as they arrived on the wire (not decoded). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export type Route = (
  request: ServedRequest,
  response: ServerResponse,
  socket: Socket,
) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: ServedRequest[];
  /** Replaces how requests are answered. */
  route(route: Route): void;
  close(): Promise<void>;
}

/** Writes `body` with `status` and `contentType` (no Content-Type header when it is ''). */
export function send(
  response: ServerResponse,
  status: number,
  body: string,
  contentType = 'application/json',
): void {
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  response.writeHead(status, headers);
  response.end(body);
}

/** A real HTTP server on an ephemeral loopback port. */
export async function startServer(
  initial: Route = (_, res) => send(res, 200, '{}'),
): Promise<TestServer> {
  let route = initial;
  const requests: ServedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const served: ServedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(served);
      void Promise.resolve(route(served, res, req.socket)).catch((error: unknown) => {
        res.destroy(error as Error);
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    route(next) {
      route = next;
    },
    close() {
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One server for the whole test file, started before its tests and closed after them. The object
 * is filled in when the server starts, so tests use it as the server itself.
 * @example const server = fileServer(); // then server.route(...), server.origin
 */
export function fileServer(): TestServer {
  const server = {} as TestServer;
  before(async () => void Object.assign(server, await startServer()));
  after(() => server.close());
  return server;
}

/** Good routes on `server`: `/items/:id` answers `{ id, title: 'Item <id>' }`; `/items` a list of two. */
export function serveItems(server: TestServer): void {
  server.route((request, response) => {
    const path = new URL(request.url, server.origin).pathname;
    const one = /^\/items\/([^/]+)$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      send(response, 200, JSON.stringify({ id, title: `Item ${id}` }));
    } else if (path === '/items') {
      send(
        response,
        200,
        JSON.stringify([
          { id: 'a', title: 'Item a' },
          { id: 'b', title: 'Item b' },
        ]),
      );
    } else {
      send(response, 404, JSON.stringify({ message: 'no route' }));
    }
  });
}

/** Resolves after `ms` real milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The promise's rejection reason; fails when it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail('expected the promise to reject');
}
