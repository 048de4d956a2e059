// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import { FASTElement } from '@microsoft/fast-element';
import type { EndpointLike } from '../core/index.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { select } from '../views/index.js';
import { mutateResource, readResource } from './index.js';
import type { ResourceMutation, ResourceRead } from './index.js';
import type { Todo } from '../elements/test-utils/fixtures.js';

declare const get: EndpointLike<[{ id: string }], Todo>;
declare const list: EndpointLike<[{ userId?: number }], Todo[]>;
declare const create: EndpointLike<[{ title: string }], Todo>;

export class TodoView extends FASTElement {
  todoId = '1';
  readonly todo = readResource(this, get, (x) => ({ id: x.todoId }));
  readonly all = readResource(this, list);
  readonly titles = readResource(this, list, () => ({}), {
    view: select((todos: Todo[]) => todos.map((todo) => todo.title)),
  });
  readonly nothing = readResource(this, get, () => null);
  readonly create = mutateResource(this, create);

  wrong() {
    // @ts-expect-error the params of `get` are `{ id: string }`
    readResource(this, get, (x) => ({ id: Number(x.todoId) }));
    // @ts-expect-error the function is given the element: it has no `userId`
    readResource(this, list, (x) => ({ userId: x.userId }));
    // @ts-expect-error `run` takes the endpoint's args
    void this.create.run({ name: 'a' });
  }
}

// @ts-expect-error a FAST element, not any element
readResource(document.body, list);

declare const view: TodoView;
export type Cases = [
  Expect<Equal<typeof view.todo, ResourceRead<Todo>>>,
  Expect<Equal<typeof view.todo.value, Todo | undefined>>,
  Expect<Equal<typeof view.all.value, Todo[] | undefined>>,
  Expect<Equal<typeof view.titles.value, string[] | undefined>>,
  Expect<Equal<ReturnType<typeof view.todo.refetch>, Promise<void>>>,
  Expect<Equal<typeof view.create, ResourceMutation<typeof create>>>,
  Expect<Equal<ReturnType<typeof view.create.run>, Promise<Todo>>>,
  Expect<Equal<typeof view.create.pending, boolean>>,
];
