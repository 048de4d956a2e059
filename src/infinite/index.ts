/**
 * `resource-elements/infinite`: `InfiniteController`, a `ResourceController` for lists that grow
 * page by page (`loadMore`, `hasMore`, `loadingMore`, an IntersectionObserver sentinel). Its own
 * entry, so pages that do not scroll forever do not pay for it.
 * @module resource-elements/infinite
 */
export { InfiniteController } from '../lit/infinite-controller.js';
export type { InfiniteOptions, PagedEndpoint } from '../lit/infinite-controller.js';
