/**
 * A minimal endpoint implementing EndpointLike, so controller tests do not depend on RestEndpoint.
 */
import type { EndpointLike, RunContext, Snapshot } from '../../protocol/types.js';

/** An error for non-2xx answers, like NetworkError. */
export class FakeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
    this.name = 'FakeHttpError';
  }
}

export interface FakeEndpointOptions {
  /** `/todos/:id`; other params go to the query string. */
  path: string;
  method?: string;
  schema?: unknown;
  dataExpiryLength?: number;
  errorExpiryLength?: number;
  pollFrequency?: number;
  invalidIfStale?: boolean;
  paginationField?: string;
  getOptimisticResponse?: (snapshot: Snapshot, ...args: any[]) => unknown;
  name?: string;
}

export type FakeEndpoint = EndpointLike<any[], any>;

/**
 * @example const getTodo = fakeEndpoint({ path: '/todos/:id', schema: Todo });
 */
export function fakeEndpoint(options: FakeEndpointOptions): FakeEndpoint {
  const method = options.method ?? 'GET';
  const url = (params: Record<string, unknown> = {}, sorted: boolean): string => {
    const used = new Set<string>();
    const path = options.path.replace(/:(\w+)/g, (_, name: string) => {
      used.add(name);
      return encodeURIComponent(String(params[name]));
    });
    let entries = Object.entries(params).filter(([k, v]) => !used.has(k) && v !== undefined);
    if (sorted) entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
    return query ? `${path}?${query}` : path;
  };
  const run = async (args: readonly unknown[], context: RunContext = {}): Promise<unknown> => {
    const [params, body] = args as [Record<string, unknown> | undefined, unknown];
    const fetch = context.fetch ?? globalThis.fetch;
    const target = url(params, false);
    const response = await fetch(target, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: context.signal,
    });
    const text = await response.text();
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new SyntaxError(`${method} ${target}: the response is not JSON`);
      }
    }
    if (!response.ok) throw new FakeHttpError(response.status, parsed);
    return parsed;
  };
  const endpoint = Object.assign((...args: unknown[]) => run(args), {
    schema: options.schema,
    sideEffect: method !== 'GET',
    key: (...args: unknown[]) =>
      `${method} ${url(args[0] as Record<string, unknown> | undefined, true)}`,
    run,
    dataExpiryLength: options.dataExpiryLength,
    errorExpiryLength: options.errorExpiryLength,
    pollFrequency: options.pollFrequency,
    invalidIfStale: options.invalidIfStale,
    paginationField: options.paginationField,
    getOptimisticResponse: options.getOptimisticResponse,
  });
  Object.defineProperty(endpoint, 'name', { value: options.name ?? `${method} ${options.path}` });
  return endpoint as unknown as FakeEndpoint;
}
