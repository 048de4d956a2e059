// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { LitElement } from 'lit';
import type { EndpointLike } from '../core/controller/types.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { ResourceController } from './resource-controller.js';

interface Todo {
  id: string;
  title: string;
}
declare const host: LitElement;
declare const get: EndpointLike<[{ id: string }], Todo>;
declare const list: EndpointLike<[{ userId?: number }], Todo[]>;

export const direct = new ResourceController(host, get, () => ({ id: '1' }));
export const hooked = new ResourceController(
  host,
  () => get,
  () => ({ id: '1' }),
);
export const nullable = new ResourceController(host, list, () => null);
export const rendered = direct.render({ complete: (todo) => todo.title, pending: () => 0 });

export type Cases = [
  Expect<Equal<typeof direct.value, Todo | undefined>>,
  Expect<Equal<typeof hooked.value, Todo | undefined>>,
  Expect<Equal<typeof nullable.value, Todo[] | undefined>>,
  Expect<Equal<typeof direct.status, 'pending' | 'complete' | 'error'>>,
  Expect<Equal<typeof rendered, string | number | undefined>>,
];

// Misuse is a compile error.
// @ts-expect-error `id` must be a string
export const wrongArgs = new ResourceController(host, get, () => ({ id: 1 }));
// @ts-expect-error the args are an object of URL parameters
export const notAFunction = new ResourceController(host, get, { id: '1' });
