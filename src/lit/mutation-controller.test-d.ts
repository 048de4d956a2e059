// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error. `run` takes the
// endpoint's own arguments and resolves with its result.
import type { LitElement } from 'lit';
import type { EndpointLike } from '../core/index.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { createResource } from '../core/rest/create-resource.js';
import { hookifyResource } from '../core/rest/hookify-resource.js';
import { Entity } from '../core/schema/entity.js';
import { MutationController } from './mutation-controller.js';

interface Todo {
  id: string;
  title: string;
}
declare const host: LitElement;
declare const save: EndpointLike<[{ id: string }, { title: string }], Todo>;

export const direct = new MutationController(host, save);
export const hooked = new MutationController(host, () => save);
export const saved = direct.run({ id: '1' }, { title: 'x' });

export type Cases = [
  Expect<Equal<Parameters<typeof direct.run>, [{ id: string }, { title: string }]>>,
  Expect<Equal<typeof saved, Promise<Todo>>>,
  Expect<Equal<ReturnType<typeof hooked.run>, Promise<Todo>>>,
  Expect<Equal<typeof direct.value, Todo | undefined>>,
  Expect<Equal<typeof direct.status, 'idle' | 'pending' | 'success' | 'error'>>,
];

// With a real resource and its hooks.
class Task extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'TypeMutTask';
}
const TaskResource = createResource({
  path: '/tasks/:id',
  schema: Task,
  body: {} as { title: string; done?: boolean },
});
const TaskHooks = hookifyResource(TaskResource);
export const update = new MutationController(host, TaskResource.partialUpdate);
export const create = new MutationController(host, TaskResource.getList.push);
export const remove = new MutationController(host, TaskHooks.useDelete);
export const updated = update.run({ id: '1' }, { done: true });
export const created = create.run({ title: 'new' });
export const removed = remove.run({ id: 1 });

export type ResourceCases = [
  Expect<Equal<typeof updated, Promise<Task>>>,
  Expect<Equal<typeof created, Promise<Task>>>,
  Expect<Equal<typeof update.value, Task | undefined>>,
];

// Misuse is a compile error.
// @ts-expect-error `id` must be a string
export const wrongId = direct.run({ id: 1 }, { title: 'x' });
// @ts-expect-error the body is missing
export const noBody = direct.run({ id: '1' });
// @ts-expect-error `done` is a boolean
export const wrongBody = update.run({ id: '1' }, { done: 'yes' });
// @ts-expect-error `get` needs its `id`
export const missingId = new MutationController(host, TaskResource.get).run({});
