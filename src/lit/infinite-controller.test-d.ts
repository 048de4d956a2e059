// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { LitElement } from 'lit';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { createResource } from '../core/rest/create-resource.js';
import { Entity } from '../core/schema/entity.js';
import { InfiniteController } from './infinite-controller.js';
import type { InfiniteOptions } from './infinite-controller.js';

declare const host: LitElement;

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'TypeInfPost';
}
const PostResource = createResource({
  path: '/:group/posts/:id',
  schema: Post,
  paginationField: 'page',
});
const Unpaged = createResource({ path: '/things/:id', schema: Post });

export const posts = new InfiniteController(host, PostResource.getList, () => ({ group: 'a' }), {
  nextPage: (lastPage, pages) => (lastPage.length === 5 ? pages + 1 : undefined),
});

export type LastPage = Parameters<
  (typeof posts)['hasMore'] extends boolean ? InfiniteNext : never
>[0];
type InfiniteNext = InfiniteOptions<typeof PostResource.getList>['nextPage'];

export type Cases = [
  Expect<Equal<LastPage, Post[]>>,
  Expect<Equal<typeof posts.value, Post[] | undefined>>,
  Expect<Equal<typeof posts.hasMore, boolean>>,
  Expect<Equal<ReturnType<typeof posts.loadMore>, Promise<void>>>,
];

// @ts-expect-error a list without paginationField has no pages
export const unpaged = new InfiniteController(host, Unpaged.getList, () => ({}), {
  nextPage: () => undefined,
});
// @ts-expect-error `group` is required
export const noGroup = new InfiniteController(host, PostResource.getList, () => ({}), {
  nextPage: () => undefined,
});
