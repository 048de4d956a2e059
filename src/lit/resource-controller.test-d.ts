// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { LitElement } from 'lit';
import type { EndpointLike } from '../core/index.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { createResource } from '../core/rest/create-resource.js';
import { hookifyResource } from '../core/rest/hookify-resource.js';
import { Entity } from '../core/schema/entity.js';
import { ResourceController } from './resource-controller.js';

interface Todo {
  id: string;
  title: string;
}
declare const host: LitElement;
declare const get: EndpointLike<[{ id: string }], Todo>;
declare const todoList: EndpointLike<[{ userId?: number }], Todo[]>;

export const direct = new ResourceController(host, get, () => ({ id: '1' }));
export const hooked = new ResourceController(
  host,
  () => get,
  () => ({ id: '1' }),
);
export const nullable = new ResourceController(host, todoList, () => null);
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

// With a real resource and its hooks.
class Task extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'TypeTask';
}
const TaskResource = createResource({
  path: '/tasks/:id',
  schema: Task,
  searchParams: {} as { userId?: string },
});
const TaskHooks = hookifyResource(TaskResource);
export const one = new ResourceController(host, TaskResource.get, () => ({ id: 1 }));
export const list = new ResourceController(host, TaskResource.getList, () => ({ userId: '1' }));
export const hookedOne = new ResourceController(host, TaskHooks.useGet, () => ({ id: '1' }));

export type ResourceCases = [
  Expect<Equal<typeof one.value, Task | undefined>>,
  Expect<Equal<typeof list.value, Task[] | undefined>>,
  Expect<Equal<typeof hookedOne.value, Task | undefined>>,
];

// @ts-expect-error `get` needs `id`
export const missingId = new ResourceController(host, TaskResource.get, () => ({ userId: '1' }));
