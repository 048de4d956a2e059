// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { Controller, EndpointLike } from '../core/index.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { prefetch } from './index.js';

interface Todo {
  id: string;
  title: string;
}
declare const controller: Controller;
declare const get: EndpointLike<[{ id: string }], Todo>;
declare const list: EndpointLike<[{ userId?: number }], Todo[]>;

export const one = prefetch(controller, get, { id: '1' });
export const many = prefetch(controller, list, { userId: 1 });

export function misuse() {
  // @ts-expect-error `id` is a string
  void prefetch(controller, get, { id: 1 });
  // @ts-expect-error `user` is not a parameter of the list
  void prefetch(controller, list, { user: 1 });
  // @ts-expect-error the read needs its parameters
  void prefetch(controller, get);
}

export type Cases = [
  // Undefined when the read failed: the failure is in the store, not thrown.
  Expect<Equal<typeof one, Promise<Todo | undefined>>>,
  Expect<Equal<typeof many, Promise<Todo[] | undefined>>>,
];
