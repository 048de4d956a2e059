// Type tests of RestEndpoint: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { EndpointLike, RetryOption } from '../protocol/types.js';
import { Collection } from '../schema/collection.js';
import { Entity } from '../schema/entity.js';
import { Invalidate } from '../schema/invalidate.js';
import type { Equal, Expect } from '../test-utils/type-assert.js';
import { RestEndpoint } from './rest-endpoint.js';

type V = string | number;

class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const get = new RestEndpoint({ path: '/:group/todos/:id', schema: Todo });
const update = new RestEndpoint({
  path: '/todos/:id',
  method: 'PUT',
  schema: Todo,
  body: {} as { title: string; completed?: boolean },
});
const list = new RestEndpoint({
  path: '/todos',
  schema: new Collection([Todo]),
  searchParams: {} as { userId?: number; order?: 'asc' | 'desc' },
  paginationField: 'page',
});
export const noSchema = new RestEndpoint({ path: '/ping' });
export const processed = new RestEndpoint({
  path: '/count/:kind',
  // Annotate process's parameters: TypeScript cannot type them from the options being inferred.
  process(value: { n: number }, params: { kind: V }) {
    return { n: value.n, kind: params.kind };
  },
});
const batchDelete = new RestEndpoint({
  path: '/todos',
  method: 'DELETE',
  body: [] as string[],
  schema: [new Invalidate(Todo)],
  process(_value: unknown, _params: unknown, ids: string[]) {
    return ids.map((id) => ({ id }));
  },
});

export type Cases = [
  Expect<Equal<Parameters<typeof get>, [params: { group: V; id: V }]>>,
  Expect<Equal<Awaited<ReturnType<typeof get>>, Todo>>,
  Expect<Equal<typeof get.path, '/:group/todos/:id'>>,
  Expect<Equal<typeof get.method, 'GET'>>,
  Expect<Equal<typeof update.method, 'PUT'>>,
  Expect<
    Equal<
      Parameters<typeof update>,
      [params: { id: V }, body: { title: string; completed?: boolean }]
    >
  >,
  Expect<
    Equal<Parameters<typeof list>, [params?: { userId?: number; order?: 'asc' | 'desc'; page?: V }]>
  >,
  Expect<Equal<Awaited<ReturnType<typeof list>>, Todo[]>>,
  Expect<
    Equal<
      Parameters<typeof list.getPage>,
      [params: { userId?: number; order?: 'asc' | 'desc'; page: V }]
    >
  >,
  Expect<Equal<Awaited<ReturnType<typeof list.push>>, Todo>>,
  Expect<Equal<typeof list.push.method, 'POST'>>,
  Expect<Equal<Parameters<typeof noSchema>, [params?: {}]>>,
  Expect<Equal<Awaited<ReturnType<typeof processed>>, { n: number; kind: V }>>,
  Expect<Equal<Parameters<typeof batchDelete>, [params: {}, body: string[]]>>,
  Expect<Equal<Awaited<ReturnType<typeof batchDelete>>, Todo[]>>,
  Expect<Equal<typeof get.getPage, undefined>>,
  Expect<Equal<typeof get.push, undefined>>,
];

// Every endpoint is what the Controller runs.
export const asEndpoint: EndpointLike[] = [get, update, list, list.push, list.getPage, batchDelete];
export const exact: EndpointLike<[{ group: V; id: V }], Todo> = get;

// extend keeps what it does not change and changes what it does.
export const renamed = get.extend({ path: '/todos/:id' });
export const patched = update.extend({ method: 'PATCH', body: {} as { completed: boolean } });
export type ExtendCases = [
  Expect<Equal<Parameters<typeof renamed>, [params: { id: V }]>>,
  Expect<Equal<Awaited<ReturnType<typeof renamed>>, Todo>>,
  Expect<Equal<Parameters<typeof patched>, [params: { id: V }, body: { completed: boolean }]>>,
  Expect<
    Equal<Awaited<ReturnType<ReturnType<typeof get.extend<{ schema: [typeof Todo] }>>>>, Todo[]>
  >,
];

// Misuse is a compile error.
// @ts-expect-error `id` is required
void get({ group: 'a' });
// @ts-expect-error no such body field
void update({ id: 1 }, { title: 'x', done: true });
// @ts-expect-error the body is required for a PUT
void update({ id: 1 });
// @ts-expect-error the page is required for getPage
void list.getPage({ userId: 1 });
// @ts-expect-error searchParams are typed
void list({ userId: 'one' });
// @ts-expect-error no getPage without paginationField
void get.getPage({ id: 1 });

// retry: a count or a function of the failures and the error; the same option on a resource.
export const retried = new RestEndpoint({ path: '/r/:id', retry: 4 });
type RetryFunction = Extract<NonNullable<RetryOption>, (...args: never[]) => unknown>;
export const retriedBy = new RestEndpoint({
  path: '/r/:id',
  retry: (failures, error) => (failures < 3 && error instanceof Error ? 1_000 : false),
});
export type RetryCases = [
  Expect<Equal<typeof retried.retry, RetryOption | undefined>>,
  Expect<Equal<Parameters<RetryFunction>, [failures: number, error: unknown]>>,
  Expect<Equal<ReturnType<RetryFunction>, boolean | number>>,
];
// @ts-expect-error retry is a count or a function
export const retryWords = new RestEndpoint({ path: '/r/:id', retry: 'often' });
// @ts-expect-error the function returns false, true or a delay
export const retryText = new RestEndpoint({ path: '/r/:id', retry: () => 'soon' });
