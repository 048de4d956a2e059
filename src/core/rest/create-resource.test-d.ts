// Type tests of createResource and hookifyResource: compiled by `tsc` in `npm test`.
import { Entity } from '../schema/entity.js';
import type { Equal, Expect } from '../test-utils/type-assert.js';
import { createResource } from './create-resource.js';
import { hookifyResource } from './hookify-resource.js';

type V = string | number;

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

const Posts = createResource({
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { author?: string },
  body: {} as { title: string },
  paginationField: 'page',
});
const Plain = createResource({ path: '/todos/:id', schema: Post });
const Hooks = hookifyResource(Posts, () => ({ headers: { 'Access-Token': 't' } }));
export const Extended = Posts.extend('search', {
  path: '/search',
  searchParams: {} as { q: string },
  schema: [Post],
});

export type Cases = [
  Expect<Equal<Parameters<typeof Posts.get>, [params: { group: V; id: V }]>>,
  Expect<Equal<Awaited<ReturnType<typeof Posts.get>>, Post>>,
  // The page is optional on the list: `getList({ group, page: 2 })` reads page 2 on its own.
  Expect<
    Equal<Parameters<typeof Posts.getList>, [params: { group: V; author?: string; page?: V }]>
  >,
  Expect<Equal<Awaited<ReturnType<typeof Posts.getList>>, Post[]>>,
  Expect<
    Equal<
      Parameters<typeof Posts.getList.push>,
      [params: { group: V; author?: string }, body: { title: string }]
    >
  >,
  Expect<Equal<Awaited<ReturnType<typeof Posts.getList.push>>, Post>>,
  Expect<
    Equal<
      Parameters<typeof Posts.getList.getPage>,
      [params: { group: V; author?: string; page: V }]
    >
  >,
  Expect<
    Equal<Parameters<typeof Posts.update>, [params: { group: V; id: V }, body: { title: string }]>
  >,
  Expect<
    Equal<
      Parameters<typeof Posts.partialUpdate>,
      [params: { group: V; id: V }, body: { title?: string }]
    >
  >,
  Expect<
    Equal<Parameters<typeof Posts.move>, [params: { group: V; id: V }, body: { title?: string }]>
  >,
  Expect<Equal<Awaited<ReturnType<typeof Posts.move>>, Post>>,
  Expect<Equal<(typeof Posts.move)['method'], 'PATCH'>>,
  Expect<Equal<Parameters<typeof Posts.getList.remove>[0], { group: V; author?: string }>>,
  Expect<Equal<Awaited<ReturnType<typeof Posts.getList.remove>>, Post>>,
  Expect<Equal<(typeof Posts.getList.remove)['method'], 'PATCH'>>,
  Expect<Equal<ReturnType<typeof Hooks.useMove>, typeof Posts.move>>,
  Expect<Equal<Parameters<typeof Posts.delete>, [params: { group: V; id: V }]>>,
  Expect<Equal<Awaited<ReturnType<typeof Posts.delete>>, Post>>,
  Expect<Equal<typeof Plain.getList.getPage, undefined>>,
  Expect<Equal<ReturnType<typeof Hooks.useGet>, typeof Posts.get>>,
  Expect<Equal<ReturnType<typeof Hooks.useGetList>, typeof Posts.getList>>,
  Expect<
    Equal<
      keyof typeof Hooks,
      'useGet' | 'useGetList' | 'useUpdate' | 'usePartialUpdate' | 'useMove' | 'useDelete'
    >
  >,
  Expect<Equal<Parameters<typeof Extended.search>, [params: { q: string }]>>,
  Expect<Equal<Awaited<ReturnType<typeof Extended.search>>, Post[]>>,
];

// Misuse is a compile error.
// @ts-expect-error `id` is required
void Posts.get({ group: 'g' });
// @ts-expect-error wrong body field
void Posts.update({ group: 'g', id: 1 }, { name: 'x' });
// @ts-expect-error the page is required
void Posts.getList.getPage({ group: 'g' });
// @ts-expect-error no getPage without paginationField
void Plain.getList.getPage({});
// @ts-expect-error move needs the entity's path params
void Posts.move({ group: 'g' }, { title: 'x' });
// @ts-expect-error move's body has the entity's fields only
void Posts.move({ group: 'g', id: 1 }, { name: 'x' });
// @ts-expect-error a field of the wrong type
void Posts.move({ group: 'g', id: 1 }, { title: 1 });
// getList.remove's body names the entity by its pk, or gives some of the body's fields.
void Posts.getList.remove({ group: 'g' }, { id: '5' });
void Posts.getList.remove({ group: 'g', author: 'a' }, { title: 't' });
// @ts-expect-error the pk has the entity's type (a string here)
void Posts.getList.remove({ group: 'g' }, { id: 5 });
// @ts-expect-error getList.remove's body has the entity's fields only
void Posts.getList.remove({ group: 'g' }, { name: 'x' });
// @ts-expect-error no such hook
void Hooks.useSearch;
